import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { answerClientError, frameworkErrorAnswer } from './client-error.ts';
import type { GatewayConfig } from './config.ts';
import { isSecure } from './gateway-context.ts';
import { API_HEADERS, PAGE_SECURITY_HEADERS } from './page-headers.ts';
import { sendError } from './replies.ts';

/** A body the gateway accepts: the API's 1 MB (SECURITY.md 21) and room for multipart framing. */
const BODY_LIMIT = 2 * 1024 * 1024;
/** Path segments such as URL-encoded addresses (spec §4.2) are longer than the default 100. */
const MAX_PARAM_LENGTH = 2000;

/** The server's own settings: logs without query strings, body and path limits, early refusals. */
export function gatewayServerOptions(config: GatewayConfig): FastifyServerOptions {
  return {
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
  };
}

/**
 * What every request goes through: bodies kept as sent, cookies, compression where a route asks,
 * the refusal of absolute request targets, the security headers, and errors in the spec's shape.
 */
export async function registerHooks(app: FastifyInstance, config: GatewayConfig): Promise<void> {
  // Bodies are forwarded as the browser sent them; the gateway reads only its own small forms.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  await app.register(fastifyCookie);
  // Only the routes that ask for it (routes/proxy.routes.ts): request bodies are never decompressed.
  await app.register(fastifyCompress, { global: false });

  app.addHook('onRequest', async (request, reply) => {
    // An absolute request target (`GET http://other.example/…`) names another host: never proxied.
    if (!request.raw.url?.startsWith('/'))
      return sendError(reply, 400, 'Only paths of this origin are served');
  });
  const secure = isSecure(config);
  app.addHook('onSend', async (_request, reply, payload) => {
    const isPage = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    for (const [name, value] of Object.entries(isPage ? PAGE_SECURITY_HEADERS : API_HEADERS))
      if (!reply.hasHeader(name)) reply.header(name, value);
    if (secure) reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, status, status >= 500 ? 'Internal server error' : error.message);
  });
}
