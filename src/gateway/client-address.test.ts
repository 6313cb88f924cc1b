import { describe, expect, it } from 'vitest';
import { clientOf } from './client-address.ts';

describe('clientOf', () => {
  it('is the IPv4 address, mapped or not, and an IPv6 address’s /64', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    // One host's /64, however it writes its address: one client.
    expect(clientOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:3::1')).not.toBe(clientOf('2001:db8:1:2::1'));
  });
});
