import type { FastifyReply } from 'fastify';
import { API_HEADERS, PAGE_SECURITY_HEADERS } from '../../gateway/page-headers.ts';

// SECURITY.md 24: one definition of the page and API headers for the server and the gateway.
export { API_HEADERS, PAGE_SECURITY_HEADERS };

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
