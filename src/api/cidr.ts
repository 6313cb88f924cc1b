/**
 * IP addresses and CIDR ranges (spec §2.6 `cidr`), read without Node's `net` module so that the
 * dashboard can tell, as a range is typed, whether it would shut out the address in use. The
 * reference server checks requests with `node:net` (src/server/auth/cidr.ts); its tests prove the
 * two agree, so the rules here follow Node's: dotted IPv4 without leading zeros, IPv6 with `::`
 * and an optional dotted tail.
 */

export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

const BITS = { 4: 32, 6: 128 } as const;

/** `a.b.c.d`, each part 0–255 written without leading zeros (Node's `isIPv4`). */
function parseIPv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** Eight groups of 1–4 hex digits, one `::` standing for one or more zero groups, an IPv4 tail. */
function parseIPv6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string | undefined): bigint[] | null => {
    if (half === undefined || half === '') return [];
    const pieces = half.split(':');
    const groups: bigint[] = [];
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 === null) return null;
        groups.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(piece)) {
        groups.push(BigInt(`0x${piece}`));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  if (head === null || tail === null) return null;
  // A dotted tail may end the address only.
  if (halves.length === 2 && halves[0]?.includes('.')) return null;
  const compressed = halves.length === 2;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<bigint>(missing).fill(0n), ...tail];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

/** An IPv4 or IPv6 address, or null when it is neither (a zone index such as `%eth0` included). */
export function parseIpAddress(text: string): IpAddress | null {
  const v4 = parseIPv4(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = text.includes(':') ? parseIPv6(text) : null;
  return v6 === null ? null : { family: 6, value: v6 };
}

export interface CidrRange {
  network: IpAddress;
  prefix: number;
}

/** `address` or `address/prefix` (0–32 for IPv4, 0–128 for IPv6); null when it is not one. */
export function parseCidr(text: string): CidrRange | null {
  const [address = '', prefixText, ...rest] = text.split('/');
  if (rest.length > 0) return null;
  const network = parseIpAddress(address);
  if (!network) return null;
  if (prefixText === undefined) return { network, prefix: BITS[network.family] };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > BITS[network.family]) return null;
  return { network, prefix: Number(prefixText) };
}

/**
 * Whether `address` is inside `cidr`, as the reference server decides (SECURITY.md 18): an IPv4
 * address that reached an IPv6 socket (`::ffff:a.b.c.d`) counts as IPv4, an IPv4 range never
 * holds an IPv6 address nor the reverse, the network's host bits and an IPv6 address's zone index
 * (`fe80::1%eth0`, which a socket may report) are ignored. null when either cannot be read, so a
 * caller can tell "outside" from "cannot say".
 */
export function cidrIncludes(cidr: string, address: string): boolean | null {
  const range = parseCidr(cidr);
  const unmapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
  const ip = parseIpAddress(/^([^%]*:[^%]*)%[0-9A-Za-z.:-]+$/.exec(unmapped)?.[1] ?? unmapped);
  if (!range || !ip) return null;
  if (ip.family !== range.network.family) return false;
  const hostBits = BigInt(BITS[ip.family] - range.prefix);
  return ip.value >> hostBits === range.network.value >> hostBits;
}
