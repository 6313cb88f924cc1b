import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_REQUEST_HEADER } from '../api/gateway.ts';
import { csrfProblem } from './csrf.ts';

/** The gateway's own refusals, in the spec's error shape (§7), never cached. */
export function sendError(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).header('cache-control', 'no-store').send({ is_error: true, message });
}

/**
 * SECURITY.md 27: refuses (403) what another site could have sent with the browser's cookie;
 * true when it did, and the browser has its answer.
 */
export function refuseCrossSite(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
): boolean {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const problem = csrfProblem(
    {
      method: request.method,
      origin: header('origin'),
      secFetchSite: header('sec-fetch-site'),
      customHeader: header(GATEWAY_REQUEST_HEADER),
    },
    publicUrl,
  );
  if (problem === null) return false;
  void sendError(reply, 403, problem);
  return true;
}
