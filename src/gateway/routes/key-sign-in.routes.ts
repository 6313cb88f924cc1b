import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GATEWAY_PATHS } from '../../api/gateway.ts';
import { sessionView, startSession } from '../browser-session.ts';
import type { GatewayContext } from '../gateway-context.ts';
import { refuseCrossSite, sendError } from '../replies.ts';
import type { Credential } from '../session-store.ts';
import { CredentialRefusedError, UpstreamUnavailableError } from '../upstream.ts';

/** An API key typed once (spec §5.1), kept only here; checked with one cheap upstream call. */
export function registerKeySignIn(app: FastifyInstance, context: GatewayContext): void {
  app.post(GATEWAY_PATHS.key, async (request, reply) => {
    if (refuseCrossSite(request, reply, context.config.publicUrl)) return reply;
    const key = keyFromBody(request);
    if (!key) return sendError(reply, 400, 'Enter an API key.');
    const credential: Credential = { method: 'key', key };
    try {
      const principal = await context.upstream.probe(credential);
      const session = await startSession(context, request, reply, credential, principal);
      return reply.header('cache-control', 'no-store').send(sessionView(context.config, session));
    } catch (error) {
      if (error instanceof CredentialRefusedError)
        return sendError(
          reply,
          401,
          'The server refused this key: it is unknown, expired, or not allowed from this address.',
        );
      if (error instanceof UpstreamUnavailableError)
        return sendError(reply, error.status, error.message);
      throw error;
    }
  });
}

/** `key` from the sign-in form's JSON or form-encoded body. */
function keyFromBody(request: FastifyRequest): string | null {
  if (!Buffer.isBuffer(request.body)) return null;
  const text = request.body.toString('utf8');
  const type = String(request.headers['content-type'] ?? '');
  let value: unknown;
  if (type.startsWith('application/json')) {
    try {
      value = (JSON.parse(text) as Record<string, unknown> | null)?.key;
    } catch {
      return null;
    }
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    value = new URLSearchParams(text).get('key');
  }
  // A key is a header value: printable ASCII, no spaces (spec §5.1 rule 4).
  return typeof value === 'string' && /^[\x21-\x7e]{1,1024}$/.test(value.trim())
    ? value.trim()
    : null;
}
