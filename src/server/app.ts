import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
} from 'fastify';
// The 400 answers say what is wrong in words (zod's English messages).
import '../api/english-messages.ts';
import { readFormBody } from '../api/form-encoding.ts';
import { answerClientError, frameworkErrorAnswer } from '../gateway/client-error.ts';
import { dashboardStaticOptions } from '../gateway/static-files.ts';
import { createAuthCache, type AuthCache } from './auth/auth-cache.ts';
import type { ServerConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { readPoolOf } from './db/heavy-reader.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import type { AppDeps } from './http/app-deps.ts';
import { BODY_LIMIT } from './http/body-limit.ts';
import { decodeBody, formText } from './http/body-text.ts';
import { readJsonBody } from './http/json-body.ts';
import { readUnlabelledBody } from './http/unlabelled-body.ts';
import { HttpError } from './http/http-error.ts';
import { setSecurityHeaders } from './http/security-headers.ts';
import { refuseTokenInUrl } from './http/token-in-url.ts';
import { splitUrl } from './http/url-parts.ts';
import { memoryRateLimiter, postgresRateLimiter } from './rate-limit/rate-limiter.ts';
import { issuerOf } from './oauth/metadata.ts';
import { linkKey } from './tokens/signed-link.ts';
import { registerPublicRoutes } from './public/routes.ts';
import { registerRoutes } from './routes/register-routes.ts';
import { unitOfWork } from './db/unit-of-work.ts';
import { startAuditRetention } from './audit/retention.ts';
import { startDocumentRenderer } from './services/background-document-renderer.ts';
import { storeChangedContactDocuments } from './services/contact-document-store.ts';

export { BODY_LIMIT };

export interface BuildAppOptions {
  config: ServerConfig;
  database: DatabaseHandle;
  validateResponses?: boolean;
  /** Tests pass their own, to forget what they changed behind the server's back. */
  authCache?: AuthCache;
  /** The server's time; tests set the date (lib/clock.ts). */
  clock?: Clock;
  /**
   * Writes are recorded in the audit log (issue 26 item 4); false only where its cost is measured
   * against a server without it (bench/audit-cost.ts).
   */
  auditLog?: boolean;
  /** How often entries past AUDIT_RETENTION_DAYS are purged; tests shorten it. */
  auditPurgeIntervalMs?: number;
}

/** Builds the reference server: API v2 under /api/2/, and the dashboard from `dist/` at `/`. */
export async function buildApp({
  config,
  database,
  validateResponses = false,
  authCache = createAuthCache(),
  clock = systemClock,
  auditLog = true,
  auditPurgeIntervalMs,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: BODY_LIMIT,
    // SECURITY.md 18: X-Forwarded-For counts only when it comes from a proxy named in TRUST_PROXY.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Long search strings are legitimate; the router's default of 100 characters is not enough.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors Node and the router raise before any route runs still answer in the spec's shape (§7).
    clientErrorHandler: answerClientError,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const [status, message] = frameworkErrorAnswer(error.code, MAX_PARAM_LENGTH);
      setSecurityHeaders(reply, request.url);
      void reply.status(status).send({ is_error: true, message });
    },
  });

  // The threads that run long reads (SQLite) start with the server rather than with a request.
  readPoolOf(database.db)?.warm();
  // The key of the links in mail (issue 25) is read, or made, once here: never from within a
  // request's write transaction, where SQLite's one writer would wait on itself.
  await linkKey(database.db);

  const deps: AppDeps = {
    db: database.db,
    unitOfWork: unitOfWork(database.db, storeChangedContactDocuments, auditLog),
    auditLog,
    dialect: database.dialect,
    config,
    validateResponses,
    authCache,
    clock,
    publicOrigin: () => issuerOf(config, listeningPort(app)),
    rateLimiter:
      database.dialect === 'postgres'
        ? postgresRateLimiter(database.db, config.rateLimitWindowSeconds)
        : memoryRateLimiter(config.rateLimitWindowSeconds),
  };

  // Spec §1 rule 2: bodies are form fields. Keep every repeated key, in order, for the shared decoder,
  // which also reads bodies that were never percent-encoded, and JSON objects with the same fields.
  app.removeAllContentTypeParsers();
  // Read in their declared charset, strictly (http/body-text.ts): nothing stored is silently garbled.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (request, body, done) => {
      try {
        done(
          null,
          readFormBody(formText(decodeBody(body as Buffer, request.headers['content-type']))),
        );
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, readJsonBody(decodeBody(body as Buffer, request.headers['content-type']).text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Be liberal with real clients: fetch() labels a string body text/plain unless told otherwise,
  // and some clients send no type or a generic one. Such a body is JSON when it looks like it,
  // else form fields; any other named type (XML…) is still 415. Cross-site forms could already send
  // form fields, and the API reads credentials only from headers, so this opens nothing new.
  const sniffed = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (error: Error | null, value?: unknown) => void,
  ) => {
    try {
      done(null, readUnlabelledBody(decodeBody(body as Buffer, request.headers['content-type'])));
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  app.addContentTypeParser(
    ['text/plain', 'application/octet-stream'],
    { parseAs: 'buffer' },
    sniffed,
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if (request.headers['content-type'] === undefined) return sniffed(request, body, done);
    const error = new Error('Unsupported media type') as FastifyError;
    error.code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
    error.statusCode = 415;
    done(error, undefined);
  });
  await app.register(fastifyMultipart, {
    limits: { fieldSize: BODY_LIMIT, files: 0, fields: 1000 },
  });

  // Every route but the API's operations gets the hooks below. A hook costs each request it runs on
  // (measured: 3 µs of the single-contact GET's 40 or so, bench/server-throughput.ts), so the
  // operations do the same two things in their own handler (http/define-route.ts).
  app.addHook('onRoute', (route) => {
    if (route.config?.operation) return;
    route.onRequest = [...hooksOf(route.onRequest), refuseTokenInUrlHook];
    route.onSend = [...hooksOf(route.onSend), securityHeadersHook];
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    setSecurityHeaders(reply, request.url);
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return reply.status(error.status).send({ is_error: true, message: error.message });
    }
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ is_error: true, message: 'Internal server error' });
    }
    return reply
      .status(status)
      .send({ is_error: true, message: clientErrorMessage(error, status) });
  });

  const staticDir = config.staticDir;
  const hasDashboard = fs.existsSync(path.join(staticDir, 'index.html'));
  if (hasDashboard) {
    await app.register(fastifyStatic, dashboardStaticOptions(staticDir));
  }

  // No hook runs here either (the route hooks above are per route): this handler does what they do.
  app.setNotFoundHandler((request, reply) => {
    refuseTokenInUrl(request.url);
    const [pathname, search] = splitUrl(request.url);
    if (pathname.startsWith('/api/')) {
      setSecurityHeaders(reply, request.url);
      // Spec §1 rule 1: every URL ends with a slash; redirect, keeping the method for non-GETs.
      if (!pathname.endsWith('/')) {
        const location = `${pathname}/${search === undefined ? '' : `?${search}`}`;
        // Spec §1 rule 3: every body is a JSON object, a redirect's too.
        return reply
          .status(request.method === 'GET' || request.method === 'HEAD' ? 301 : 308)
          .header('location', location)
          .send({ location });
      }
      return reply.status(404).send({ is_error: true, message: 'The API request does not exist' });
    }
    if (
      hasDashboard &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.extname(pathname)
    ) {
      // The dashboard routes on the client: every page URL gets the app shell.
      setSecurityHeaders(reply.type('text/html'), request.url);
      return reply.sendFile('index.html');
    }
    setSecurityHeaders(reply.type('text/plain'), request.url);
    return reply.status(404).send('Not found');
  });

  registerRoutes(app, deps);
  registerPublicRoutes(app, deps);

  // Documents a bulk change nulled or left behind their account's version are rendered again.
  const renderer = startDocumentRenderer(database.db, {
    intervalMs: DOCUMENT_RENDER_INTERVAL_MS,
    onError: (error) =>
      app.log.warn({ err: error }, 'rendering contact documents failed; the next pass retries'),
  });
  app.addHook('onClose', () => renderer.stop());
  // AUDIT_RETENTION_DAYS: the app's own timer purges what is older, by the server's clock.
  const retention = startAuditRetention(database.db, {
    clock,
    days: config.auditRetentionDays,
    intervalMs: auditPurgeIntervalMs,
    onError: (error) =>
      app.log.warn({ err: error }, 'purging the audit log failed; the next pass retries'),
  });
  app.addHook('onClose', () => retention.stop());
  return app;
}

const DOCUMENT_RENDER_INTERVAL_MS = 1000;

function refuseTokenInUrlHook(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  refuseTokenInUrl(request.url);
  done();
}

function securityHeadersHook(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  setSecurityHeaders(reply, request.url);
  done(null, payload);
}

/** A route's own hooks of one kind, none, one or several, as a list. */
function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** The port bound (PORT=0 picks one), or undefined before listening (app.inject in tests). */
function listeningPort(app: FastifyInstance): number | undefined {
  const address = app.server.address();
  return address !== null && typeof address === 'object' ? address.port : undefined;
}

/** A path segment longer than any identifier or URL-encoded address the API stores. */
const MAX_PARAM_LENGTH = 1000;

function clientErrorMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than ${BODY_LIMIT} bytes`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // Spec §1's encodings.
      return 'Send form fields (application/x-www-form-urlencoded or multipart/form-data) or a JSON object (application/json)';
    default:
      return status === 404 ? 'Not found' : error.message;
  }
}
