import { cidrIncludes } from '../../../../api/cidr.ts';

/**
 * The warning under the `cidr` field (spec §2.6) while the range typed would refuse the address the
 * dashboard uses now, as the server sees it. null when the range admits it, when the field is
 * empty or not a range yet (its own error says so), or when the address is unknown.
 */
export function cidrWarning(cidr: string, address: string | null): string | null {
  const range = cidr.trim();
  if (range === '' || address === null) return null;
  if (cidrIncludes(range, address) !== false) return null;
  return `${range} excludes ${address}, the address you are using now: this administrator’s API keys would not work from here.`;
}

/**
 * What the `cidr` field says instead when the address in use is unknown: a range is typed, but
 * the server does not offer the `caller.get` extension (`supported` false, lib/extensions.ts) or
 * did not answer it. null without a range.
 */
export function cidrUncheckedNote(cidr: string, supported: boolean): string | null {
  const range = cidr.trim();
  if (range === '') return null;
  return supported
    ? `The server did not say which address it sees you from, so ${range} cannot be checked against it: make sure it includes your address.`
    : `This server does not tell the dashboard which address it sees you from, so ${range} cannot be checked against it: make sure it includes your address.`;
}
