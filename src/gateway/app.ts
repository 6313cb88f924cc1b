import fs from 'node:fs';
import path from 'node:path';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import * as oauth from 'oauth4webapi';
// The 400 answers say what is wrong in words (zod's English messages).
import '../api/english-messages.ts';
import { GATEWAY_PATHS, GATEWAY_REQUEST_HEADER, type GatewaySession } from '../api/gateway.ts';
import type { GatewayConfig } from './config.ts';
import { clientOf } from './client-address.ts';
import { answerClientError, frameworkErrorAnswer } from './client-error.ts';
import { csrfProblem } from './csrf.ts';
import { PURGE_EVERY_MS, everyInterval, type Schedule } from './housekeeping.ts';
import { GatewayImageQuery, imageOfMessage, messagePath } from './message-image.ts';
import { API_HEADERS, PAGE_SECURITY_HEADERS } from './page-headers.ts';
import { dashboardStaticOptions } from './static-files.ts';
import {
  API_ROOT,
  apiPathProblem,
  forward,
  upstreamRequestHeaders,
  type UpstreamAnswer,
} from './proxy.ts';
import { createRefresher } from './refresh.ts';
import { randomId } from './sealing.ts';
import { endUpstreamSignIn } from './upstream-sign-out.ts';
import {
  PENDING_LOGIN_MS,
  type Credential,
  type Session,
  type SessionStore,
} from './session-store.ts';
import {
  CredentialRefusedError,
  SignInError,
  UpstreamUnavailableError,
  authorizationOf,
  createUpstream,
} from './upstream.ts';

/** Where the dashboard says why a sign-in did not complete (its /auth/:problem pages). */
const SIGN_IN_FAILED = '/auth/sign-in-failed';
const CONSENT_DENIED = '/auth/consent-denied';

/** A body the gateway accepts: the API's 1 MB (SECURITY.md 21) and room for multipart framing. */
const BODY_LIMIT = 2 * 1024 * 1024;
/** Path segments such as URL-encoded addresses (spec §4.2) are longer than the default 100. */
const MAX_PARAM_LENGTH = 2000;

export interface GatewayOptions {
  config: GatewayConfig;
  store: SessionStore;
  /** Tests replace the network to the upstream. */
  fetch?: typeof fetch;
  now?: () => number;
  /** The purge's timer (housekeeping.ts); tests run it themselves. */
  schedule?: Schedule;
}

/**
 * `listkeeper dashboard`: the built dashboard, and on the same origin the backend-for-frontend of
 * the OAuth Browser-Based Apps BCP: sign-in (a confidential OAuth client, or an API key), sessions
 * held in the browser only as an HttpOnly cookie, and `/api/2/…` forwarded to the upstream with
 * the session's credential (SECURITY.md 25–28).
 */
export async function buildGateway({
  config,
  store,
  fetch: fetcher = fetch,
  now = Date.now,
  schedule = everyInterval,
}: GatewayOptions) {
  const upstream = createUpstream(config, fetcher, now);
  const refresher = createRefresher({
    store,
    refresh: (tokens) => upstream.refresh(tokens),
    now,
    leaseMs: config.upstreamTimeoutMs + 5_000,
  });
  const secure = config.publicUrl.startsWith('https:');
  // `__Host-`: only this origin may set it, on every path, and only over https (RFC 6265bis).
  const sessionCookie = secure ? '__Host-listkeeper-session' : 'listkeeper-session';
  const loginCookie = secure ? '__Host-listkeeper-login' : 'listkeeper-login';
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // SECURITY.md 28: no query string in the logs (the callback's code and state).
            serializers: {
              req: (request: { method: string; url: string }) => ({
                method: request.method,
                path: request.url.split('?')[0],
              }),
            },
          },
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // What Node and the router refuse before any route runs is answered in the spec's shape too (§7).
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, ...frameworkErrorAnswer(error.code, MAX_PARAM_LENGTH));
    },
  });

  // Bodies are forwarded as the browser sent them; the gateway reads only its own small forms.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  await app.register(fastifyCookie);
  // Only the routes that ask for it (`API_COMPRESSION`): request bodies are never decompressed.
  await app.register(fastifyCompress, { global: false });

  app.addHook('onRequest', async (request, reply) => {
    // An absolute request target (`GET http://other.example/…`) names another host: never proxied.
    if (!request.raw.url?.startsWith('/'))
      return sendError(reply, 400, 'Only paths of this origin are served');
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    const isPage = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    for (const [name, value] of Object.entries(isPage ? PAGE_SECURITY_HEADERS : API_HEADERS))
      if (!reply.hasHeader(name)) reply.header(name, value);
    if (secure) reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });

  // Ended sessions and abandoned sign-ins leave the database on a timer, not on a request's time.
  const stopPurge = schedule(async () => {
    try {
      await store.purgeExpired(now());
    } catch (error) {
      app.log.warn({ err: error }, 'purging ended sessions failed');
    }
  }, PURGE_EVERY_MS);
  app.addHook('onClose', async () => stopPurge());

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, status, status >= 500 ? 'Internal server error' : error.message);
  });

  const sessionOf = (request: FastifyRequest) => store.find(request.cookies[sessionCookie], now());

  async function startSession(
    reply: FastifyReply,
    request: FastifyRequest,
    credential: Credential,
    principal: Session['principal'],
  ) {
    // SECURITY.md 25: a new id at every sign-in; the browser's previous session ends.
    const previous = await sessionOf(request);
    if (previous) await store.delete(previous.idHash);
    const { id, session } = await store.create(credential, principal, now());
    reply.setCookie(sessionCookie, id, {
      ...cookieOptions,
      maxAge: Math.floor(config.sessionMaxMs / 1000),
    });
    return session;
  }

  async function endSession(reply: FastifyReply, session: Session | null) {
    if (session) await store.delete(session.idHash);
    reply.clearCookie(sessionCookie, cookieOptions);
  }

  /** SECURITY.md 27: refuses what another site could have sent with the browser's cookie. */
  function refuseCrossSite(request: FastifyRequest, reply: FastifyReply): boolean {
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
      config.publicUrl,
    );
    if (problem === null) return false;
    void sendError(reply, 403, problem);
    return true;
  }

  app.get(GATEWAY_PATHS.config, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send({
      mode: 'gateway',
      api_base_url: '',
      oauth: upstream.oauthOffered,
      upstream_name: config.upstreamName,
    }),
  );

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
    reply.setCookie(loginCookie, browserId, { ...cookieOptions, maxAge: PENDING_LOGIN_MS / 1000 });
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
      ? await store.takePendingLogin(state, request.cookies[loginCookie], now())
      : null;
    // Its sign-in is over, whatever follows: the session cookie stays the browser's only one.
    if (pending) reply.clearCookie(loginCookie, cookieOptions);
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
      await startSession(reply, request, credential, await upstream.probe(credential, username));
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

  // An API key typed once (spec §5.1), kept only here; checked with one cheap upstream call.
  app.post(GATEWAY_PATHS.key, async (request, reply) => {
    if (refuseCrossSite(request, reply)) return reply;
    const key = keyFromBody(request);
    if (!key) return sendError(reply, 400, 'Enter an API key.');
    const credential: Credential = { method: 'key', key };
    try {
      const session = await startSession(
        reply,
        request,
        credential,
        await upstream.probe(credential),
      );
      return reply.header('cache-control', 'no-store').send(sessionView(session));
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

  app.get(GATEWAY_PATHS.session, async (request, reply) => {
    const session = await sessionOf(request);
    if (!session && request.cookies[sessionCookie] !== undefined) await endSession(reply, null);
    const view: GatewaySession = session ? sessionView(session) : { signed_in: false };
    return reply.header('cache-control', 'no-store').send(view);
  });

  // SECURITY.md 25: the row goes, so every tab and every gateway process sees the end at once;
  // first the upstream's grant and sign-in end, with a token refreshed on that row if need be.
  app.post(GATEWAY_PATHS.logout, async (request, reply) => {
    if (refuseCrossSite(request, reply)) return reply;
    const session = await sessionOf(request);
    if (session) await endUpstreamSignIn(session, refresher, upstream);
    await endSession(reply, session);
    return reply.header('cache-control', 'no-store').send({ success: 1 });
  });

  function sessionView(session: Session): GatewaySession {
    return {
      signed_in: true,
      method: session.principal.method,
      global: session.principal.global,
      username: session.principal.username,
      upstream_name: config.upstreamName,
      expires_at: new Date(session.expiresAt).toISOString(),
    };
  }

  /**
   * One request to the upstream with the session's credential: refreshed before it expires, and
   * once more after a 401. Null when the browser has been answered already (no session, or it ended).
   */
  async function sendAsSession(
    request: FastifyRequest,
    reply: FastifyReply,
    target: { method: string; url: string; body: Buffer | undefined },
  ): Promise<UpstreamAnswer | null> {
    let session = await sessionOf(request);
    if (!session) {
      await endSession(reply, null);
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
        fetcher,
      );
    let answer: UpstreamAnswer;
    try {
      session = await refresher.usable(session);
      if (!session) return sessionEnded(reply);
      answer = await send(session);
      // The access token was refused (revoked, or expired early): one refresh, one more try.
      if (answer.status === 401 && session.credential.method === 'oauth') {
        session = await refresher.usable(session, true);
        if (!session) return sessionEnded(reply);
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
    if (answer.status === 401) await endSession(reply, session);
    return answer;
  }

  // SECURITY.md 26: `/api/2/…` only, to the configured upstream only, with the session's credential.
  app.all(`${API_ROOT}*`, { compress: API_COMPRESSION }, async (request, reply) => {
    if (refuseCrossSite(request, reply)) return reply;
    const url = request.raw.url ?? '';
    const problem = apiPathProblem(url);
    if (problem) return sendError(reply, 400, problem);
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    const answer = await sendAsSession(request, reply, { method: request.method, url, body });
    if (!answer) return reply;
    return reply.status(answer.status).headers(answer.headers).send(answer.body);
  });

  // The image proxy, here rather than at the upstream: the message is read with the session's credential.
  app.get(GATEWAY_PATHS.messageImage, async (request, reply) => {
    if (refuseCrossSite(request, reply)) return reply;
    const query = GatewayImageQuery.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      return sendError(
        reply,
        400,
        `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'is invalid'}`,
      );
    }
    const message = await sendAsSession(request, reply, {
      method: 'GET',
      url: messagePath(query.data),
      body: undefined,
    });
    if (!message) return reply;
    if (message.status !== 200)
      return reply.status(message.status).headers(message.headers).send(message.body);
    const image = await imageOfMessage(message, query.data.url, config.imageProxy);
    return reply.status(image.status).header('cache-control', 'no-store').send(image.body);
  });

  async function sessionEnded(reply: FastifyReply): Promise<null> {
    await endSession(reply, null);
    void sendError(reply, 401, 'The session has ended: sign in again.');
    return null;
  }

  const hasDashboard = fs.existsSync(path.join(config.staticDir, 'index.html'));
  if (hasDashboard) await app.register(fastifyStatic, dashboardStaticOptions(config.staticDir));
  else app.log.warn(`No dashboard in ${config.staticDir}: run \`npm run build\``);

  app.setNotFoundHandler((request, reply) => {
    const pathname = (request.raw.url ?? '/').split('?')[0] ?? '/';
    if (pathname.startsWith('/api/')) return sendError(reply, 404, 'Only /api/2/ is forwarded');
    if (
      hasDashboard &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.extname(pathname)
    ) {
      // The dashboard routes on the client: every page URL gets the app shell.
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(reply, 404, 'Not found');
  });

  return app;
}

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

function sendError(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).header('cache-control', 'no-store').send({ is_error: true, message });
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

export type Gateway = FastifyInstance;
