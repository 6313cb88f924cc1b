import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import {
  createUserAdministrator,
  deleteUser,
  getUser,
  getUsers,
  updateUser,
} from '../services/users.service.ts';

/**
 * Spec §4.6: the administrators. Without an account (a global key without account_id) these are
 * the group's global administrators (spec §4.8 rule 2). Key retrieval shares PUT /users/:id/ with
 * update: `users.update` answers both (register-routes.ts).
 */
export function registerUsersRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'users.list', (ctx) =>
    getUsers(ctx.db, ctx.account?.id ?? null, ctx.meter),
  );

  defineRoute(app, deps, 'users.get', (ctx) =>
    getUser(ctx.db, ctx.account?.id ?? null, ctx.params.id),
  );

  defineRoute(app, deps, 'users.create', (ctx) =>
    createUserAdministrator(ctx.db, ctx.account?.id ?? null, ctx.principal, ctx.body, ctx.now, {
      origin: ctx.deps.publicOrigin(),
      account: ctx.account,
    }),
  );

  defineRoute(app, deps, 'users.update', (ctx) =>
    updateUser(ctx.db, ctx.account?.id ?? null, ctx.principal, ctx.params.id, ctx.body, ctx.now),
  );

  defineRoute(app, deps, 'users.delete', async (ctx) => {
    await deleteUser(ctx.db, ctx.account?.id ?? null, ctx.principal, ctx.params.id);
    return { success: 1 } as const;
  });
}
