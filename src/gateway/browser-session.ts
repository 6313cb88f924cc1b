import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewaySession } from '../api/gateway.ts';
import type { GatewayConfig } from './config.ts';
import type { GatewayContext } from './gateway-context.ts';
import type { Credential, Session } from './session-store.ts';

/** The live session the browser's cookie names, or null. */
export function sessionOf(
  context: GatewayContext,
  request: FastifyRequest,
): Promise<Session | null> {
  return context.store.find(request.cookies[context.cookies.session], context.now());
}

/** Signs the browser in: a new session row, its id in the cookie. */
export async function startSession(
  context: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  credential: Credential,
  principal: Session['principal'],
): Promise<Session> {
  const { store, cookies, config } = context;
  // SECURITY.md 25: a new id at every sign-in; the browser's previous session ends.
  const previous = await sessionOf(context, request);
  if (previous) await store.delete(previous.idHash);
  const { id, session } = await store.create(credential, principal, context.now());
  reply.setCookie(cookies.session, id, {
    ...cookies.options,
    maxAge: Math.floor(config.sessionMaxMs / 1000),
  });
  return session;
}

/** Ends the session everywhere (its row goes) and clears the browser's cookie. */
export async function endSession(
  context: GatewayContext,
  reply: FastifyReply,
  session: Session | null,
): Promise<void> {
  if (session) await context.store.delete(session.idHash);
  reply.clearCookie(context.cookies.session, context.cookies.options);
}

/** What the page may know of its session (src/api/gateway.ts): no credential. */
export function sessionView(config: GatewayConfig, session: Session): GatewaySession {
  return {
    signed_in: true,
    method: session.principal.method,
    global: session.principal.global,
    username: session.principal.username,
    upstream_name: config.upstreamName,
    expires_at: new Date(session.expiresAt).toISOString(),
  };
}
