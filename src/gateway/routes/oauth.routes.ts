import type { FastifyInstance } from 'fastify';
import * as oauth from 'oauth4webapi';
import { GATEWAY_PATHS } from '../../api/gateway.ts';
import { clientOf } from '../client-address.ts';
import { startSession } from '../browser-session.ts';
import type { GatewayContext } from '../gateway-context.ts';
import { sendError } from '../replies.ts';
import { randomId } from '../sealing.ts';
import { PENDING_LOGIN_MS, type Credential } from '../session-store.ts';
import { SignInError } from '../upstream.ts';

/** Where the dashboard says why a sign-in did not complete (its /auth/:problem pages). */
const SIGN_IN_FAILED = '/auth/sign-in-failed';
const CONSENT_DENIED = '/auth/consent-denied';

/**
 * The OAuth sign-in as a confidential client (SECURITY.md 9, 28): the authorization request with
 * PKCE and a single-use `state` bound to this browser, and the callback that redeems the code.
 */
export function registerOAuthRoutes(app: FastifyInstance, context: GatewayContext): void {
  const { store, upstream, cookies, now } = context;

  // The sign-in button's full-page navigation: the authorization request (RFC 6749 §4.1.1).
  app.get(GATEWAY_PATHS.login, async (request, reply) => {
    if (!upstream.oauthOffered)
      return sendError(
        reply,
        404,
        'OAuth sign-in is not offered: this dashboard has no client id and secret.',
      );
    const next = (request.query as Record<string, unknown>).next;
    // The browser that starts the sign-in is the one that must finish it (SECURITY.md 28), under a
    // value minted now: never one it brought, which another site may have set (login CSRF).
    const browserId = randomId();
    const state = oauth.generateRandomState();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    await store.savePendingLogin(
      state,
      browserId,
      { codeVerifier, returnTo: typeof next === 'string' ? next : '/' },
      now(),
      clientOf(request.ip),
    );
    reply.setCookie(cookies.login, browserId, {
      ...cookies.options,
      maxAge: PENDING_LOGIN_MS / 1000,
    });
    return reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .redirect(await upstream.authorizationUrl(state, codeVerifier), 303);
  });

  app.get(GATEWAY_PATHS.callback, async (request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const callback = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
    const state = callback.get('state');
    const pending = state
      ? await store.takePendingLogin(state, request.cookies[cookies.login], now())
      : null;
    // Its sign-in is over, whatever follows: the session cookie stays the browser's only one.
    if (pending) reply.clearCookie(cookies.login, cookies.options);
    if (!state || !pending) {
      request.log.warn('OAuth callback without a pending sign-in of this browser');
      return reply.redirect(SIGN_IN_FAILED, 303);
    }
    try {
      const { tokens, username } = await upstream.exchangeCode(
        callback,
        state,
        pending.codeVerifier,
      );
      const credential: Credential = { method: 'oauth', tokens };
      const principal = await upstream.probe(credential, username);
      await startSession(context, request, reply, credential, principal);
    } catch (error) {
      request.log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'OAuth sign-in failed',
      );
      return reply.redirect(
        error instanceof SignInError && error.consentDenied ? CONSENT_DENIED : SIGN_IN_FAILED,
        303,
      );
    }
    // The dashboard's sign-in page checks the return path and resumes there.
    const next =
      pending.returnTo === '/'
        ? '/sign-in'
        : `/sign-in?next=${encodeURIComponent(pending.returnTo)}`;
    return reply.redirect(next, 303);
  });
}
