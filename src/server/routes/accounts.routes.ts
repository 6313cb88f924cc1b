import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import {
  createAccount,
  deleteAccount,
  getAccount,
  getAccounts,
  updateAccount,
} from '../services/accounts.service.ts';

/**
 * Spec §4.7: the accounts of the group, for global keys (define-route refuses account keys), but
 * get and update, which an account's own principal may call on its own account (`ctx.account`,
 * operations.ts OWN_ACCOUNT).
 */
export function registerAccountsRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'accounts.list', (ctx) => getAccounts(ctx.db, ctx.query, ctx.meter));

  defineRoute(app, deps, 'accounts.get', (ctx) =>
    getAccount(ctx.db, ctx.params.id, ctx.query, ctx.account),
  );

  defineRoute(app, deps, 'accounts.create', (ctx) =>
    createAccount(ctx.db, ctx.principal, ctx.body, ctx.now),
  );

  defineRoute(app, deps, 'accounts.update', (ctx) =>
    updateAccount(ctx.db, ctx.params.id, ctx.body, ctx.account),
  );

  defineRoute(app, deps, 'accounts.delete', async (ctx) => {
    await deleteAccount(ctx.db, ctx.params.id, ctx.commit);
    return { success: 1 } as const;
  });
}
