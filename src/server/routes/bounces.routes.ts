import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { clearBouncesOf, listBounces } from '../services/bounces.service.ts';
import { requireAccount } from './route-support.ts';

/** Reference-server extension (operations.ts `bounces.*`, issue 26): addresses that bounce. */
export function registerBouncesRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'bounces.list', (ctx) =>
    listBounces(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.query, ctx.meter),
  );
  defineRoute(app, deps, 'bounces.clear', (ctx) =>
    clearBouncesOf(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id),
  );
}
