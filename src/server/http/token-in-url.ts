import { HttpError } from './http-error.ts';
import { queryStringOf } from './url-parts.ts';

/**
 * SECURITY.md 11: a token never travels in a URL, so an API URL with `?access_token=` is refused,
 * never read. The cheap test runs on every request; the query is parsed only when it matches.
 */
export function refuseTokenInUrl(url: string): void {
  if (url.startsWith('/api/') && /access(?:_|%5f)token/i.test(url) && hasAccessTokenParam(url)) {
    throw new HttpError(400, 'Send the access token in the Authorization header, never in the URL');
  }
}

function hasAccessTokenParam(url: string): boolean {
  return new URLSearchParams(queryStringOf(url)).has('access_token');
}
