import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Spec §2.6 `cidr`: whether the request's address is inside the key's range. IPv4 addresses that
 * reach an IPv6 socket arrive as `::ffff:a.b.c.d` and are compared as IPv4 (SECURITY.md 18).
 */
export function addressInCidr(address: string, cidr: string): boolean {
  const ip = unmapIPv4(address);
  const [network = '', prefixText] = cidr.split('/');
  const family = isIPv4(network) ? 'ipv4' : isIPv6(network) ? 'ipv6' : null;
  if (!family) return false;
  const prefix = prefixText === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefixText);
  const ipFamily = isIPv4(ip) ? 'ipv4' : isIPv6(ip) ? 'ipv6' : null;
  if (ipFamily !== family) return false;
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list.check(ip, family);
}

function unmapIPv4(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}
