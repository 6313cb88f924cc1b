import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { requireAccount } from './route-support.ts';
import { createEmail, deleteEmail, getEmail, updateEmail } from '../services/emails.service.ts';

/** Spec §4.2: the emails endpoints. `:id` is a service id, or a URL-encoded address. */
export function registerEmailsRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'emails.get', (ctx) =>
    getEmail(ctx.db, requireAccount(ctx.account), ctx.params.id),
  );
  defineRoute(app, deps, 'emails.create', (ctx) =>
    createEmail(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.body),
  );
  defineRoute(app, deps, 'emails.update', (ctx) =>
    updateEmail(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id, ctx.body),
  );
  defineRoute(app, deps, 'emails.delete', async (ctx) => {
    await deleteEmail(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id);
    return { success: 1 as const };
  });
}
