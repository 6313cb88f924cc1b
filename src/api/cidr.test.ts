import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cidrIncludes, parseCidr, parseIpAddress } from './cidr.ts';

describe('parseIpAddress', () => {
  it('reads IPv4 and IPv6, compressed or with a dotted tail', () => {
    expect(parseIpAddress('10.1.2.3')).toEqual({ family: 4, value: 0x0a010203n });
    expect(parseIpAddress('::')).toEqual({ family: 6, value: 0n });
    expect(parseIpAddress('::1')).toEqual({ family: 6, value: 1n });
    expect(parseIpAddress('::ffff:10.1.2.3')).toEqual({ family: 6, value: 0xffff0a010203n });
    expect(parseIpAddress('1:2:3:4:5:6:7::')?.value).toBe(
      0x0001_0002_0003_0004_0005_0006_0007_0000n,
    );
    expect(parseIpAddress('2001:DB8::1')).toEqual(parseIpAddress('2001:0db8:0:0:0:0:0:1'));
  });

  it('refuses what Node does not read as an address', () => {
    for (const text of [
      '',
      '010.1.2.3',
      '256.0.0.1',
      '1.2.3',
      '1::2::3',
      ':1::2',
      '1:2:3:4:5:6:7:8:9',
      '1::2:3:4:5:6:7:8',
      '00000::1',
      '1.2.3.4::',
      'fe80::1%eth0',
      '[::1]',
    ]) {
      expect(parseIpAddress(text), text).toBeNull();
    }
  });

  it('reads every address fast-check writes', () => {
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => parseIpAddress(ip) !== null));
  });
});

describe('cidrIncludes (SECURITY.md 18 cases)', () => {
  const cases: [cidr: string, inside: string[], outside: string[]][] = [
    [
      '10.0.0.0/8',
      ['10.1.2.3', '10.255.255.255', '::ffff:10.1.2.3', '::FFFF:10.0.0.0'],
      ['11.0.0.1', '::ffff:11.0.0.1', '2001:db8::1', '::1'],
    ],
    ['10.1.2.3/32', ['10.1.2.3', '::ffff:10.1.2.3'], ['10.1.2.4', '10.1.2.2']],
    ['10.1.2.3', ['10.1.2.3'], ['10.1.2.4']],
    // The host bits of the network are ignored, as Node's BlockList does.
    ['10.1.2.3/8', ['10.200.0.1'], ['11.1.2.3']],
    ['0.0.0.0/0', ['1.2.3.4', '127.0.0.1', '::ffff:8.8.8.8'], ['::1', '2001:db8::1']],
    ['::/0', ['::1', '2001:db8::1', 'fe80::1'], ['127.0.0.1', '::ffff:127.0.0.1']],
    [
      '2001:db8:1:2::/64',
      ['2001:db8:1:2::5', '2001:db8:1:2:ffff:ffff:ffff:ffff'],
      ['2001:db8:1:3::5', '10.1.2.3'],
    ],
    ['2001:db8::1/128', ['2001:db8::1'], ['2001:db8::2']],
    // A mapped range holds no address: a mapped address is compared as IPv4.
    ['::ffff:0:0/96', [], ['::ffff:10.1.2.3', '10.1.2.3']],
    // A socket may report a link-local address with its zone; the range ignores it.
    ['fe80::/10', ['fe80::1%eth0', 'fe80::1%1'], ['10.0.0.1', '2001:db8::1%eth0']],
  ];

  for (const [cidr, inside, outside] of cases) {
    it(`${cidr}`, () => {
      for (const address of inside) expect(cidrIncludes(cidr, address), address).toBe(true);
      for (const address of outside) expect(cidrIncludes(cidr, address), address).toBe(false);
    });
  }

  it('cannot say for a range or an address it cannot read', () => {
    expect(cidrIncludes('10.0.0.0/33', '10.0.0.1')).toBeNull();
    expect(cidrIncludes('', '10.0.0.1')).toBeNull();
    expect(cidrIncludes('10.0.0.0/8', 'fe80::1%')).toBeNull();
    expect(cidrIncludes('10.0.0.0/8', 'unknown')).toBeNull();
  });

  it('reads prefixes 0 to 32 for IPv4 and 0 to 128 for IPv6', () => {
    expect(parseCidr('10.0.0.0/32')?.prefix).toBe(32);
    expect(parseCidr('10.0.0.0/33')).toBeNull();
    expect(parseCidr('::/128')?.prefix).toBe(128);
    expect(parseCidr('::/129')).toBeNull();
    expect(parseCidr('10.0.0.0/8/8')).toBeNull();
    expect(parseCidr('10.0.0.0/')).toBeNull();
  });
});
