import type { FastifyReply, FastifyRequest } from 'fastify';
import { endSession, sessionOf } from './browser-session.ts';
import type { GatewayContext } from './gateway-context.ts';
import { forward, upstreamRequestHeaders, type UpstreamAnswer } from './proxy.ts';
import { sendError } from './replies.ts';
import type { Session } from './session-store.ts';
import { UpstreamUnavailableError, authorizationOf } from './upstream.ts';

/**
 * One request to the upstream with the session's credential (the proxy and the image proxy):
 * refreshed before it expires, and once more after a 401. Null when the browser has been answered
 * already (no session, or it ended).
 */
export async function sendAsSession(
  context: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  target: { method: string; url: string; body: Buffer | undefined },
): Promise<UpstreamAnswer | null> {
  const { config, refresher } = context;
  let session = await sessionOf(context, request);
  if (!session) {
    await endSession(context, reply, null);
    void sendError(reply, 401, 'Not signed in, or the session has ended: sign in again.');
    return null;
  }
  const send = (current: Session) =>
    forward(
      config.upstreamUrl,
      {
        ...target,
        headers: upstreamRequestHeaders(
          request.headers,
          authorizationOf(current.credential),
          request.ip,
        ),
      },
      config.upstreamTimeoutMs,
      context.fetch,
    );
  let answer: UpstreamAnswer;
  try {
    session = await refresher.usable(session);
    if (!session) return sessionEnded(context, reply);
    answer = await send(session);
    // The access token was refused (revoked, or expired early): one refresh, one more try.
    if (answer.status === 401 && session.credential.method === 'oauth') {
      session = await refresher.usable(session, true);
      if (!session) return sessionEnded(context, reply);
      answer = await send(session);
    }
  } catch (error) {
    if (error instanceof UpstreamUnavailableError) {
      void sendError(reply, error.status, error.message);
      return null;
    }
    throw error;
  }
  // Spec §5.1 rule 6: the credential no longer works; the session ends with it.
  if (answer.status === 401) await endSession(context, reply, session);
  return answer;
}

async function sessionEnded(context: GatewayContext, reply: FastifyReply): Promise<null> {
  await endSession(context, reply, null);
  void sendError(reply, 401, 'The session has ended: sign in again.');
  return null;
}
