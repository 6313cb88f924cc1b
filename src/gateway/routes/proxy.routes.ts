import type { FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { sendAsSession } from '../as-session.ts';
import type { GatewayContext } from '../gateway-context.ts';
import { API_ROOT, apiPathProblem } from '../proxy.ts';
import { refuseCrossSite, sendError } from '../replies.ts';

/**
 * The API's JSON leaves compressed (Brotli at a fast level, else gzip) when it is over 1 kB: a page
 * of 100 contacts or 50 messages is about a fifth of its size on a phone's connection. The
 * dashboard's own files were compressed at build time (static-files.ts). Safe from BREACH-style
 * guessing: every request here must carry the dashboard's header (SECURITY.md 27), so no other
 * site can make the browser ask for an answer whose size it would measure.
 */
const API_COMPRESSION = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
} satisfies FastifyCompressOptions;

/** SECURITY.md 26: `/api/2/…` only, to the configured upstream only, with the session's credential. */
export function registerProxy(app: FastifyInstance, context: GatewayContext): void {
  app.all(`${API_ROOT}*`, { compress: API_COMPRESSION }, async (request, reply) => {
    if (refuseCrossSite(request, reply, context.config.publicUrl)) return reply;
    const url = request.raw.url ?? '';
    const problem = apiPathProblem(url);
    if (problem) return sendError(reply, 400, problem);
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    const answer = await sendAsSession(context, request, reply, {
      method: request.method,
      url,
      body,
    });
    if (!answer) return reply;
    return reply.status(answer.status).headers(answer.headers).send(answer.body);
  });
}
