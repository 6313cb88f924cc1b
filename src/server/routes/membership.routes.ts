import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { requireAccount } from './route-support.ts';
import {
  createMembership,
  deleteMembership,
  getMembership,
  updateMembership,
} from '../services/membership.service.ts';

/** Spec §4.3: the membership endpoints. */
export function registerMembershipRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'membership.get', (ctx) =>
    getMembership(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id),
  );
  defineRoute(app, deps, 'membership.create', (ctx) =>
    createMembership(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.body, ctx.now),
  );
  defineRoute(app, deps, 'membership.update', (ctx) =>
    updateMembership(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id, ctx.body),
  );
  defineRoute(app, deps, 'membership.delete', async (ctx) => {
    await deleteMembership(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id);
    return { success: 1 as const };
  });
}
