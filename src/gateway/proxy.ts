import { API_PREFIX } from '../api/constants.ts';
import { unavailable } from './upstream.ts';

/** The only paths the gateway forwards (SECURITY.md 26): the API v2 tree of spec §9 rule 1. */
export const API_ROOT = `${API_PREFIX}/`;

/** Percent-decoding rounds looked through before a segment counts as hiding something. */
const DECODE_ROUNDS = 4;

/**
 * Why `url` (the request target as the client sent it) must not be forwarded, or null. It must be
 * a path under /api/2/, and no segment may, however many times it is decoded, be `.` or `..`
 * (with or without `;parameters`) or hold a `/` or `\`: an upstream (or a proxy before it) that decodes once more would otherwise
 * leave /api/2/ (`%2e%2e`, `%2f`, `%5c`, `%252e`…). An absolute URL (another host) never is.
 */
export function apiPathProblem(url: string): string | null {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.startsWith(API_ROOT)) return 'Only /api/2/ is forwarded';
  if (path.includes('\\') || path.includes('#')) return 'The path holds a character no API path has';
  const segments = path.slice(API_ROOT.length).split('/');
  for (const [index, segment] of segments.entries()) {
    // Spec §1 rule 1: paths end with a slash, so only the last segment may be empty.
    if (segment === '' && index !== segments.length - 1) return 'The path has an empty segment';
    const decoded = fullyDecoded(segment);
    if (decoded === null) return 'The path is not validly percent-encoded';
    // `..;x` is `..` to servers that cut path parameters off a segment (RFC 3986 §3.3; Tomcat, Jetty).
    const name = decoded.split(';')[0];
    if (name === '.' || name === '..') return 'The path leaves /api/2/';
    if (decoded.includes('/') || decoded.includes('\\')) return 'A path segment holds an encoded slash';
  }
  return null;
}

/** A segment decoded until nothing is left to decode; null when malformed or encoded too deep. */
function fullyDecoded(segment: string): string | null {
  let text = segment;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    if (!/%[0-9a-f]{2}/i.test(text)) return text;
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  return /%[0-9a-f]{2}/i.test(text) ? null : text;
}

/**
 * What of the browser's request reaches the upstream: the content headers, nothing else. Not its
 * Cookie or Authorization (the gateway adds its own), not hop-by-hop headers (RFC 9110 §7.6.1),
 * not Host or Origin.
 */
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-language', 'content-type'] as const;

export function upstreamRequestHeaders(
  incoming: Record<string, string | string[] | undefined>,
  authorization: string,
  clientAddress: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = incoming[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers.authorization = authorization;
  // Believed only by an upstream told to trust this gateway (e.g. the reference server's TRUST_PROXY).
  headers['x-forwarded-for'] = clientAddress;
  return headers;
}

/**
 * What of the upstream's answer reaches the browser: its status and body unchanged, with the
 * content type, the rate limit's headers (spec §8; `X-RateLimit-*` where the upstream sends them),
 * and a redirect's path. Never a cookie, a `WWW-Authenticate` (the browser would prompt for a
 * password), CORS or caching headers.
 */
const PASSED_RESPONSE_HEADERS = [
  'content-type',
  'content-language',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  // What the server did not store (spec-only servers send none): the dashboard says so on the
  // field instead of "Saved" (issue 27 item 1).
  'x-ignored-fields',
] as const;

export function browserResponseHeaders(upstream: Headers, upstreamUrl: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_RESPONSE_HEADERS) {
    const value = upstream.get(name);
    if (value !== null) headers[name] = value;
  }
  const location = upstream.get('location');
  if (location !== null) {
    // Spec §1 rule 1: a path without its slash may be redirected; only to the API itself.
    const target = new URL(location, `${upstreamUrl}/`);
    const base = new URL(`${upstreamUrl}/`);
    if (target.origin === base.origin && target.pathname.startsWith(base.pathname)) {
      const path = `/${target.pathname.slice(base.pathname.length)}`;
      if (path.startsWith(API_ROOT)) headers.location = `${path}${target.search}`;
    }
  }
  headers['cache-control'] = 'no-store';
  return headers;
}

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ForwardRequest {
  method: string;
  /** The path and query as the browser sent them (checked by apiPathProblem). */
  url: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/**
 * One request to the upstream, its whole answer read within `timeoutMs`. Throws
 * UpstreamUnavailableError (502: no answer; 504: too slow). Never follows a redirect.
 */
export async function forward(
  upstreamUrl: string,
  request: ForwardRequest,
  timeoutMs: number,
  fetcher: typeof fetch = fetch,
): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetcher(`${upstreamUrl}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.body && request.body.length > 0 ? new Uint8Array(request.body) : undefined,
      redirect: 'manual',
      cache: 'no-store',
      signal,
    });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: browserResponseHeaders(response.headers, upstreamUrl), body };
  } catch (error) {
    throw unavailable(error);
  }
}
