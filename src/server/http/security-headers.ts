import type { FastifyReply } from 'fastify';

/**
 * SECURITY.md 24: the headers of every page the server renders or serves (dashboard, sign-in).
 * Message content is shown in `srcdoc` frames, so no frame source is needed.
 */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; img-src 'self' data:",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Every API answer: JSON that must not be sniffed, framed or cached by intermediaries. */
export const API_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

const API_HEADER_ENTRIES = Object.entries(API_HEADERS);
const PAGE_HEADER_ENTRIES = Object.entries(PAGE_SECURITY_HEADERS);

/**
 * Adds the headers an answer to `url` gets, keeping any its handler set: the API's for JSON under
 * /api/, the page headers for HTML there (the OAuth sign-in and consent pages) and for everything
 * else. Call it once the content type is set.
 */
export function setSecurityHeaders(reply: FastifyReply, url: string): void {
  const isPage = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
  const headers = url.startsWith('/api/') && !isPage ? API_HEADER_ENTRIES : PAGE_HEADER_ENTRIES;
  for (const [name, value] of headers) if (!reply.hasHeader(name)) reply.header(name, value);
}
