import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_PATHS } from '../../api/gateway.ts';
import type { GatewayConfig } from '../config.ts';
import { sendError } from '../replies.ts';
import { dashboardStaticOptions } from '../static-files.ts';

/**
 * Every page behind the gateway asks who is signed in before it shows anything (sign-in included):
 * asked for with the page, beside the entry script, not after it (issue 27 item 8, one round trip
 * less on a phone). `fetchThroughGateway`'s request (same origin, credentials) takes this answer.
 */
export const SESSION_PRELOAD = `<${GATEWAY_PATHS.session}>; rel=preload; as=fetch; crossorigin=anonymous`;

/**
 * The built dashboard (static-files.ts), every page URL answered with its app shell, and 404 in
 * the spec's shape for the rest. Registered last: its not-found handler catches what no route took.
 */
export async function registerDashboardFiles(
  app: FastifyInstance,
  config: GatewayConfig,
): Promise<void> {
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
      return reply
        .type('text/html')
        .header('cache-control', 'no-cache')
        .header('link', SESSION_PRELOAD)
        .sendFile('index.html');
    }
    return sendError(reply, 404, 'Not found');
  });
}
