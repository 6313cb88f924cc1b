import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticationFailed, keyFromHeader } from '../auth/authenticate.ts';
import { isAccessToken } from '../auth/authenticate-token.ts';
import { callerAddress } from '../auth/caller-address.ts';
import type { AppDeps } from '../http/app-deps.ts';
import { HttpError } from '../http/http-error.ts';
import {
  AUTHORIZATION_PARAMS,
  approveAuthorization,
  checkAuthorizationRequest,
  consentChoice,
  denialLocation,
  type AuthorizationRequest,
} from '../oauth/authorization.service.ts';
import { isClientOrigin } from '../oauth/clients.repository.ts';
import { clientCredentials } from '../oauth/clients.service.ts';
import { SESSION_COOKIE, readCookie, sessionCookie } from '../oauth/cookies.ts';
import { authorizationServerMetadata, dashboardConfig, issuerOf } from '../oauth/metadata.ts';
import { OAuthError, invalidClient, invalidRequest } from '../oauth/oauth-error.ts';
import {
  PAGES_CSS,
  consentPage,
  errorPage,
  loginPage,
  signOutPage,
  signedOutPage,
} from '../oauth/pages.ts';
import { OAUTH_PAGE_PATHS as PATHS } from '../oauth/paths.ts';
import {
  SESSION_SECONDS,
  csrfMatches,
  csrfTokenOf,
  findBrowserSession,
  signIn,
  signOut,
  signOutWithAccessToken,
  signedInOf,
  startPreSession,
  type BrowserSession,
} from '../oauth/sessions.service.ts';
import { tokenRequest } from '../oauth/token.service.ts';

/**
 * Spec §4.9 and §5.2: the OAuth 2.0 authorization server (authorization code grant with PKCE), its
 * sign-in, consent and sign-out pages, its metadata (RFC 8414) and the dashboard's configuration.
 * HTTP only: the rules live in src/server/oauth/.
 */
/** The port bound (PORT=0 picks one), or undefined before listening (app.inject in tests). */
function listeningPort(app: FastifyInstance): number | undefined {
  const address = app.server.address();
  return address !== null && typeof address === 'object' ? address.port : undefined;
}

export function registerOAuthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  // SECURITY.md 34: from configuration, never from the request (its Host header); the request is
  // kept in the signature only so that every call site reads the same.
  const issuer = (_request: FastifyRequest) => issuerOf(deps.config, listeningPort(app));
  // EXTENSIONS=off (http/spec-only.ts): only what spec §4.9 and §5.2 describe, with the pages a
  // person signs in on; clients are confidential (§5.2 rule 4: an id and a secret).
  const { extensions } = deps.config;
  const checkRequest = (request: FastifyRequest, params: URLSearchParams) =>
    checkAuthorizationRequest(db, params, issuer(request), { confidentialOnly: !extensions });
  const secure = (request: FastifyRequest) =>
    request.protocol === 'https' || Boolean(deps.config.publicUrl?.startsWith('https:'));
  const session = (request: FastifyRequest) =>
    findBrowserSession(db, readCookie(request.headers.cookie, SESSION_COOKIE), deps.clock.now());
  const setSessionCookie = (
    request: FastifyRequest,
    reply: FastifyReply,
    value: string,
    maxAgeSeconds: number,
  ) => reply.header('set-cookie', sessionCookie(value, { secure: secure(request), maxAgeSeconds }));

  if (extensions) {
    app.get(PATHS.metadata, async (request, reply) =>
      reply
        .header('cache-control', 'public, max-age=300')
        .send(authorizationServerMetadata(issuer(request))),
    );
    app.get(PATHS.dashboardConfig, async (request, reply) =>
      reply.header('cache-control', 'no-cache').send(dashboardConfig(issuer(request))),
    );
  }
  app.get(PATHS.stylesheet, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(PAGES_CSS),
  );

  // RFC 6749 §4.1.1: validate, then send the person to sign in, or straight to consent.
  app.get(PATHS.authorize, async (request, reply) => {
    const checked = await checkRequest(request, queryOf(request));
    if (checked.kind === 'error-page') return sendInvalidRequestPage(reply, checked.message);
    if (checked.kind === 'error-redirect') return reply.redirect(checked.location, 302);
    const current = await session(request);
    const next = current?.administratorId != null ? PATHS.consent : PATHS.login;
    return reply.redirect(withParams(next, checked.request), 303);
  });

  app.get(PATHS.login, async (request, reply) => {
    const checked = await checkRequest(request, queryOf(request));
    if (checked.kind === 'error-page') return sendInvalidRequestPage(reply, checked.message);
    if (checked.kind === 'error-redirect') return reply.redirect(checked.location, 302);
    let current = await session(request);
    if (current?.administratorId != null)
      return reply.redirect(withParams(PATHS.consent, checked.request), 303);
    if (!current) {
      current = startPreSession();
      setSessionCookie(request, reply, current.cookie, SESSION_SECONDS);
    }
    return sendPage(reply, 200, loginPage(loginView(checked.request, current)));
  });

  app.post(PATHS.login, async (request, reply) => {
    const form = formOf(request);
    const params = authorizationParams(form);
    const current = await session(request);
    if (!current || !csrfMatches(current, form.get('csrf_token')))
      return sendExpiredFormPage(reply, restartHref(params));
    const checked = await checkRequest(request, params);
    if (checked.kind === 'error-page') return sendInvalidRequestPage(reply, checked.message);
    if (checked.kind === 'error-redirect') return reply.redirect(checked.location, 303);
    if (current.administratorId !== null)
      return reply.redirect(withParams(PATHS.consent, checked.request), 303);

    const username = form.get('username') ?? '';
    const password = form.get('password') ?? '';
    const view = { ...loginView(checked.request, current), username };
    if (!username.trim() || !password) {
      return sendPage(
        reply,
        400,
        loginPage({ ...view, error: 'Enter your username and your password.' }),
      );
    }
    const result = await signIn(db, {
      preSession: current,
      username,
      password,
      remoteAddress: request.ip,
    }, deps.clock.now());
    switch (result.kind) {
      case 'throttled': {
        const minutes = Math.ceil(result.retryAfterSeconds / 60);
        reply.header('retry-after', String(result.retryAfterSeconds));
        const error = `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
        return sendPage(reply, 429, loginPage({ ...view, error }));
      }
      case 'failed':
        return sendPage(
          reply,
          400,
          loginPage({ ...view, error: 'The username or the password is not correct.' }),
        );
      case 'signed-in':
        setSessionCookie(request, reply, result.session.cookie, SESSION_SECONDS);
        return reply.redirect(withParams(PATHS.consent, checked.request), 303);
    }
  });

  app.get(PATHS.consent, async (request, reply) => {
    const checked = await checkRequest(request, queryOf(request));
    if (checked.kind === 'error-page') return sendInvalidRequestPage(reply, checked.message);
    if (checked.kind === 'error-redirect') return reply.redirect(checked.location, 302);
    const current = await session(request);
    if (current?.administratorId == null)
      return reply.redirect(withParams(PATHS.login, checked.request), 303);
    const signedIn = signedInOf(current);
    if (!signedIn) return reply.redirect(withParams(PATHS.login, checked.request), 303);
    const choice = await consentChoice(db, checked.request, signedIn.administratorId);
    // The dashboard is the service's own client: nothing to consent to beyond signing in.
    if (checked.request.client.first_party === 1 && choice.grantable.length > 0) {
      return reply.redirect(
        await approveAuthorization(db, checked.request, signedIn, issuer(request), deps.clock.now()),
        303,
      );
    }
    return sendPage(
      reply,
      200,
      consentPage({
        clientName: checked.request.client.name,
        username: current.username ?? '',
        ...choice,
        params: checked.request.params,
        csrfToken: csrfTokenOf(current),
      }),
    );
  });

  app.post(PATHS.consent, async (request, reply) => {
    const form = formOf(request);
    const params = authorizationParams(form);
    const current = await session(request);
    if (current?.administratorId == null || !csrfMatches(current, form.get('csrf_token'))) {
      return sendExpiredFormPage(reply, restartHref(params));
    }
    const checked = await checkRequest(request, params);
    if (checked.kind === 'error-page') return sendInvalidRequestPage(reply, checked.message);
    if (checked.kind === 'error-redirect') return reply.redirect(checked.location, 303);
    const decision = form.get('decision');
    const signedIn = signedInOf(current);
    if (decision === 'allow' && signedIn) {
      return reply.redirect(
        await approveAuthorization(db, checked.request, signedIn, issuer(request), deps.clock.now()),
        303,
      );
    }
    if (decision === 'deny') {
      return reply.redirect(
        denialLocation(checked.request, issuer(request), 'The user denied access'),
        303,
      );
    }
    return sendPage(
      reply,
      400,
      errorPage({ title: 'No decision', message: 'Choose Allow or Deny.' }),
    );
  });

  app.get(PATHS.logout, async (request, reply) => {
    const current = await session(request);
    const signedIn = current?.administratorId != null;
    return sendPage(
      reply,
      200,
      signOutPage({
        username: signedIn ? (current.username ?? '') : null,
        csrfToken: signedIn ? csrfTokenOf(current) : null,
      }),
    );
  });

  // A person signs out with the page's form; an application (the dashboard) with its access token.
  app.post(PATHS.logout, async (request, reply) => {
    const bearer = keyFromHeader(request.headers.authorization);
    if (request.headers.authorization !== undefined) {
      if (!extensions) throw new HttpError(404, 'The API request does not exist');
      if (
        !bearer ||
        !isAccessToken(bearer) ||
        !(await signOutWithAccessToken(db, bearer, callerAddress(request), deps.clock.now()))
      )
        throw authenticationFailed();
      return reply.send({ success: 1 });
    }
    const form = formOf(request);
    const current = await session(request);
    if (current) {
      if (!csrfMatches(current, form.get('csrf_token')))
        return sendExpiredFormPage(reply, PATHS.logout);
      await signOut(db, current, deps.clock.now());
      setSessionCookie(request, reply, '', 0);
    }
    // "Not you?" on the consent page: sign in again for the same request.
    const params = authorizationParams(form);
    if (params.has('client_id')) {
      const checked = await checkRequest(request, params);
      if (checked.kind === 'ok')
        return reply.redirect(withParams(PATHS.login, checked.request), 303);
    }
    return sendPage(reply, 200, signedOutPage());
  });

  // Spec §4.9: the token endpoint (code and refresh grants) and the refresh endpoint.
  for (const [url, endpoint] of [
    [PATHS.token, 'token'],
    [PATHS.refresh, 'refresh'],
  ] as const) {
    const tokenCors = async (request: FastifyRequest, reply: FastifyReply) => {
      // SECURITY.md 7: CORS here only, and only for the origin of a registered redirect URI.
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (origin && (await isClientOrigin(db, origin)))
        reply.header('access-control-allow-origin', origin);
    };
    app.route({
      method: 'POST',
      url,
      ...(extensions ? { onRequest: tokenCors } : {}),
      errorHandler: tokenErrorHandler,
      handler: async (request, reply) => {
        if (!(request.body instanceof URLSearchParams)) {
          throw invalidRequest('Send the parameters as application/x-www-form-urlencoded');
        }
        if (
          !extensions &&
          clientCredentials(request.body, request.headers.authorization).secret === null
        )
          throw invalidClient(
            'This server accepts confidential clients only: send the client secret',
          );
        const answer = await tokenRequest(
          db,
          request.body,
          request.headers.authorization,
          endpoint,
          deps.clock.now(),
          deps.config.oauthAccessTokenSeconds,
        );
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
      },
    });
    if (!extensions) continue;
    app.route({
      method: 'OPTIONS',
      url,
      onRequest: tokenCors,
      handler: async (_request, reply) => {
        if (reply.hasHeader('access-control-allow-origin')) {
          reply.header('access-control-allow-methods', 'POST');
          reply.header('access-control-allow-headers', 'Authorization, Content-Type');
          reply.header('access-control-max-age', '600');
        }
        return reply.status(204).send();
      },
    });
  }
}

/** RFC 6749 §5.2 JSON for every failure of the token endpoint, with no-store (SECURITY.md 6). */
function tokenErrorHandler(
  error: FastifyError | OAuthError | HttpError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (error instanceof OAuthError) {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    void reply.status(error.status).send(error.toJSON());
    return;
  }
  const status =
    error instanceof HttpError
      ? error.status
      : typeof error.statusCode === 'number'
        ? error.statusCode
        : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'token request failed');
    void reply
      .status(500)
      .send({ error: 'server_error', error_description: 'Internal server error' });
    return;
  }
  // Malformed bodies, wrong media types, oversized requests: the request is invalid.
  void reply.status(status === 413 ? 413 : 400).send(invalidRequest(error.message).toJSON());
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  // The page headers of SECURITY.md 24 come from app.ts's onSend hook (it matches text/html).
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

/** SECURITY.md 1: never a redirect to an untrusted client or URI, only this page. */
function sendInvalidRequestPage(reply: FastifyReply, message: string): FastifyReply {
  return sendPage(reply, 400, errorPage({ title: 'This sign-in request is not valid', message }));
}

/** A form without its session or CSRF token: nothing is done; the person starts again. */
function sendExpiredFormPage(reply: FastifyReply, retryHref: string | undefined): FastifyReply {
  const message =
    'The form was open too long, or it did not come from this site. Nothing was done.';
  return sendPage(reply, 403, errorPage({ title: 'This form has expired', message, retryHref }));
}

/** Where to start again: the authorization request the form carried, if any. */
function restartHref(params: URLSearchParams): string | undefined {
  return params.has('client_id') ? `${PATHS.authorize}?${params.toString()}` : undefined;
}

function loginView(request: AuthorizationRequest, current: BrowserSession) {
  return {
    clientName: request.client.name,
    params: request.params,
    csrfToken: csrfTokenOf(current),
  };
}

function withParams(path: string, request: AuthorizationRequest): string {
  return `${path}?${new URLSearchParams(request.params).toString()}`;
}

function queryOf(request: FastifyRequest): URLSearchParams {
  const mark = request.url.indexOf('?');
  return new URLSearchParams(mark === -1 ? '' : request.url.slice(mark + 1));
}

function formOf(request: FastifyRequest): URLSearchParams {
  return request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
}

/** Only the authorization request's own fields of a posted form, repeated ones kept (they are refused later). */
function authorizationParams(form: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of form)
    if ((AUTHORIZATION_PARAMS as readonly string[]).includes(name)) params.append(name, value);
  return params;
}
