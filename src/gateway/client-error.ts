import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Node refuses some requests before any route runs (headers over its 16 kB, a request line it cannot
 * parse, a request that takes too long to arrive): Fastify's default answer for them has its own
 * shape; this one is the spec's (§7, SECURITY.md 21). For the server and the gateway alike.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody left to answer (Node's `clientError` documentation).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are larger than the server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request did not arrive in time']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify({ is_error: true, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/**
 * What the router refuses before any route runs (a malformed percent-escape, an overlong path
 * segment), as the spec's status and message (§7). For the server and the gateway alike.
 */
export function frameworkErrorAnswer(code: string, maxParamLength: number): [number, string] {
  switch (code) {
    case 'FST_ERR_BAD_URL':
      return [400, 'The URL is not validly percent-encoded'];
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return [414, `A path segment is longer than ${maxParamLength} characters`];
    default:
      return [500, 'Internal server error'];
  }
}
