import { describe, expect, it } from 'vitest';
import { cidrUncheckedNote, cidrWarning } from './cidr-warning.ts';

describe('cidrWarning', () => {
  it('warns while the range typed excludes the address in use', () => {
    expect(cidrWarning('10.0.0.0/8', '127.0.0.1')).toBe(
      '10.0.0.0/8 excludes 127.0.0.1, the address you are using now: this administrator’s API keys would not work from here.',
    );
    expect(cidrWarning(' 127.0.0.2/32 ', '127.0.0.1')).toMatch(/^127\.0\.0\.2\/32 excludes/);
    expect(cidrWarning('::/0', '127.0.0.1')).not.toBeNull();
    expect(cidrWarning('0.0.0.0/0', '2001:db8::1')).not.toBeNull();
    expect(cidrWarning('2001:db8::/32', '2001:db9::1')).not.toBeNull();
  });

  it('is silent when the range holds it, mapped IPv4 included', () => {
    for (const [cidr, address] of [
      ['127.0.0.1', '127.0.0.1'],
      ['127.0.0.0/8', '::ffff:127.0.0.1'],
      ['0.0.0.0/0', '203.0.113.9'],
      ['::/0', '2001:db8::1'],
      ['2001:db8::/32', '2001:db8:ffff::1'],
      ['127.0.0.1/32', '127.0.0.1'],
    ]) {
      expect(cidrWarning(cidr ?? '', address ?? ''), `${cidr} ∋ ${address}`).toBeNull();
    }
  });

  it('is silent without a range, with a range half typed, or without the address', () => {
    expect(cidrWarning('', '127.0.0.1')).toBeNull();
    expect(cidrWarning('   ', '127.0.0.1')).toBeNull();
    expect(cidrWarning('10.0.', '127.0.0.1')).toBeNull();
    expect(cidrWarning('10.0.0.0/33', '127.0.0.1')).toBeNull();
    expect(cidrWarning('10.0.0.0/8', null)).toBeNull();
  });
});

describe('cidrUncheckedNote', () => {
  it('says the range cannot be checked, and why, once one is typed', () => {
    expect(cidrUncheckedNote('10.0.0.0/8', false)).toMatch(
      /^This server does not tell the dashboard which address it sees you from, so 10\.0\.0\.0\/8 cannot be checked/,
    );
    expect(cidrUncheckedNote(' 10.0.0.0/8 ', true)).toMatch(
      /^The server did not say which address/,
    );
    expect(cidrUncheckedNote('  ', false)).toBeNull();
  });
});
