import ipaddr from 'ipaddr.js';

/**
 * The client a request counts against (bounds on what anyone may make the gateway store): its
 * address, an IPv4-mapped IPv6 one as IPv4, and an IPv6 one by its /64, the least a host is given.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((part) => part.toString(16)).join(':')}::/64`;
}
