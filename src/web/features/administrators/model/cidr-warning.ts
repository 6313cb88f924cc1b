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
