import type { FastifyInstance } from 'fastify';
import { callerAddress } from '../auth/caller-address.ts';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';

/**
 * The `caller.get` extension (src/api/operations.ts): the address this request's `cidr` check
 * used, so the dashboard can warn before a restriction shuts its user out.
 */
export function registerCallerRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'caller.get', async (ctx) => ({ address: callerAddress(ctx.request) }));
}
