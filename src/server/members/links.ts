/**
 * The addresses of the members' pages (issue 25), under the public origin (PUBLIC_URL, else
 * `http://HOST:PORT`): what mail links to must be reachable from the member's mail program, so
 * it comes from configuration, never from a request's Host header (SECURITY.md 34).
 */
export const PUBLIC_PREFIX = '/l/';

/** `/l/<list address>/`: the `@` stays as typed, everything else a path segment may not hold is escaped. */
export function listPath(listAddress: string): string {
  return `${PUBLIC_PREFIX}${encodeURIComponent(listAddress).replace(/%40/g, '@')}/`;
}

export interface MemberLinks {
  list(listAddress: string): string;
  confirm(listAddress: string, token: string): string;
  unsubscribe(listAddress: string, token: string): string;
  member(listAddress: string, token: string): string;
}

export function memberLinks(origin: string): MemberLinks {
  const base = origin.replace(/\/+$/, '');
  return {
    list: (address) => `${base}${listPath(address)}`,
    confirm: (address, token) => `${base}${listPath(address)}confirm/${token}`,
    unsubscribe: (address, token) => `${base}${listPath(address)}unsubscribe/${token}`,
    member: (address, token) => `${base}${listPath(address)}member/${token}`,
  };
}

/** `<list>-<suffix>@<domain>`: the command addresses of a list (Mailman 3's). */
export function commandAddress(listAddress: string, suffix: string): string {
  const at = listAddress.lastIndexOf('@');
  return `${listAddress.slice(0, at)}-${suffix}${listAddress.slice(at)}`;
}
