import type { FastifyInstance } from 'fastify';
import { callerAddress } from '../auth/caller-address.ts';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { describeCaller } from '../services/caller.service.ts';

/**
 * The `caller.get` extension (src/api/operations.ts): the address this request's `cidr` check
 * used, so the dashboard can warn before a restriction shuts its user out, and who is calling, so
 * it shows each person only the pages and actions their permissions allow.
 */
export function registerCallerRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'caller.get', (ctx) =>
    describeCaller(ctx.db, ctx.principal, callerAddress(ctx.request)),
  );
}
