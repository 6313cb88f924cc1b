import Fastify, { type FastifyInstance } from 'fastify';
// The 400 answers say what is wrong in words (zod's English messages).
import '../api/english-messages.ts';
import type { GatewayConfig } from './config.ts';
import { createGatewayContext } from './gateway-context.ts';
import { gatewayServerOptions, registerHooks } from './hooks.ts';
import { everyInterval, registerPurge, type Schedule } from './housekeeping.ts';
import { registerDashboardFiles } from './routes/dashboard-files.routes.ts';
import { registerKeySignIn } from './routes/key-sign-in.routes.ts';
import { registerMessageImage } from './routes/message-image.routes.ts';
import { registerOAuthRoutes } from './routes/oauth.routes.ts';
import { registerProxy } from './routes/proxy.routes.ts';
import { registerSessionRoutes } from './routes/session.routes.ts';
import type { SessionStore } from './session-store.ts';

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
 * the session's credential (SECURITY.md 25–28). Each room is a module of routes/.
 */
export async function buildGateway({
  config,
  store,
  fetch: fetcher = fetch,
  now = Date.now,
  schedule = everyInterval,
}: GatewayOptions) {
  const context = createGatewayContext(config, store, fetcher, now);
  const app = Fastify(gatewayServerOptions(config));
  await registerHooks(app, config);
  registerPurge(app, store, now, schedule);
  registerSessionRoutes(app, context);
  registerOAuthRoutes(app, context);
  registerKeySignIn(app, context);
  registerProxy(app, context);
  registerMessageImage(app, context);
  await registerDashboardFiles(app, config);
  return app;
}

export type Gateway = FastifyInstance;
