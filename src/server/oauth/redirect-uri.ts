/**
 * RFC 9700 §2.1 and §4.1.3, SECURITY.md 1: redirect URIs are compared as strings, never as
 * patterns; `https` only, except `http` to a loopback address (RFC 8252 §7.3). The same check runs
 * when a client is registered and, again, on every authorization request.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a redirect URI cannot be used, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.href !== uri) return `is not in canonical form (${url.href})`;
  if (url.username || url.password) return 'may not carry a user name or password';
  if (url.hash || uri.includes('#')) return 'may not carry a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must use https (http only to a loopback address)';
}

/** The origin the browser sends from pages at this URI: the CORS key of the token endpoint. */
export function originOf(uri: string): string {
  return new URL(uri).origin;
}
