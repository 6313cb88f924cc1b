import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cidrIncludes } from '../../api/cidr.ts';
import { isCidr } from '../../api/primitives.ts';
import { addressInCidr } from './cidr.ts';

/**
 * The dashboard warns, as a `cidr` is typed, when it would shut out the address in use; it decides
 * with the contract's `cidrIncludes` (no `node:net` in a browser). The warning is right only if
 * that decision is the server's (SECURITY.md 18), so the two are compared here on generated
 * addresses and ranges: where the contract can say, it says what the server does; where it
 * cannot, the server refuses.
 */

const mapped = fc.ipV4().map((ip) => `::ffff:${ip}`);
const zoned = fc
  .tuple(fc.ipV6(), fc.stringMatching(/^[0-9a-z]{1,6}$/))
  .map(([ip, zone]) => `${ip}%${zone}`);
const address = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  mapped,
  zoned,
  fc.constantFrom('127.0.0.1', '::1', '::', '0.0.0.0'),
);

/**
 * A range around `address` (its zone dropped: a range has none); prefixes short enough that
 * unrelated addresses fall in sometimes.
 */
function rangeOf(address: string): fc.Arbitrary<string> {
  const network = address.split('%')[0] ?? '';
  const max = network.includes(':') ? 128 : 32;
  return fc.oneof(
    fc.constant(network),
    fc.integer({ min: 0, max: 8 }).map((prefix) => `${network}/${prefix}`),
    fc.integer({ min: 0, max }).map((prefix) => `${network}/${prefix}`),
  );
}

describe('the contract’s cidrIncludes agrees with the server’s addressInCidr', () => {
  it('on generated addresses and ranges, near and far', () => {
    const pair = fc
      .tuple(address, address, fc.boolean())
      .chain(([ip, other, near]) => rangeOf(near ? ip : other).map((cidr) => ({ ip, cidr })));
    fc.assert(
      fc.property(pair, ({ ip, cidr }) => {
        // Only ranges the contract accepts are ever stored (the Cidr schema refuses the rest).
        expect(isCidr(cidr), cidr).toBe(true);
        const server = addressInCidr(ip, cidr);
        const contract = cidrIncludes(cidr, ip);
        if (contract === null) return server === false;
        return contract === server;
      }),
      { numRuns: 5_000, seed: 20_261_121 },
    );
  });

  it('on every range the contract accepts: its own network is inside', () => {
    fc.assert(
      fc.property(address.chain(rangeOf), (cidr) => {
        const network = cidr.split('/')[0] ?? '';
        return !isCidr(cidr) || cidrIncludes(cidr, network) === addressInCidr(network, cidr);
      }),
      { numRuns: 2_000, seed: 20_261_122 },
    );
  });

  it('on the edges: mapped, /0, /32, /128, host bits, leading zeros, zones', () => {
    const cases: [string, string][] = [
      ['10.0.0.0/8', '::ffff:10.9.9.9'],
      ['10.0.0.0/8', '::FFFF:10.9.9.9'],
      ['10.0.0.0/8', '0:0:0:0:0:ffff:10.9.9.9'],
      ['::ffff:0:0/96', '::ffff:10.9.9.9'],
      ['::ffff:10.0.0.0/104', '::ffff:10.9.9.9'],
      ['0.0.0.0/0', '::1'],
      ['::/0', '127.0.0.1'],
      ['::/0', '::ffff:127.0.0.1'],
      ['127.0.0.1/32', '127.0.0.1'],
      ['127.0.0.1', '127.0.0.2'],
      ['10.1.2.3/8', '10.200.1.1'],
      ['2001:db8::1/128', '2001:db8::1'],
      ['2001:db8::1/127', '2001:db8::0'],
      ['010.0.0.0/8', '10.0.0.1'],
      ['10.0.0.0/8', '010.0.0.1'],
      ['10.0.0.0/8', '::ffff:010.0.0.1'],
      ['fe80::/10', 'fe80::1%eth0'],
      ['2001:db8::/32', 'fe80::1%eth0'],
      ['::ffff:0:0/96', '::ffff:1.2.3.4%eth0'],
      ['1.2.3.4', '::ffff:1.2.3.4%eth0'],
      ['fe80::/10', 'fe80::1%'],
      ['fe80::/10', 'fe80::1%a%b'],
    ];
    for (const [cidr, ip] of cases) {
      const contract = cidrIncludes(cidr, ip);
      const server = addressInCidr(ip, cidr);
      expect(contract === null ? server === false : contract === server, `${cidr} ∋ ${ip}`).toBe(
        true,
      );
    }
  });
});
