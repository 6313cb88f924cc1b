import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import { requireAccount } from './route-support.ts';
import { createContact, deleteContact, updateContact } from '../services/contact-writes.service.ts';
import { getContact, listContacts } from '../services/contacts.service.ts';

/** Spec §4.1: the contacts endpoints. `:id` is the service id, or the ccid on a ccid-enabled account. */
export function registerContactsRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'contacts.get', (ctx) =>
    getContact(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id),
  );
  defineRoute(app, deps, 'contacts.list', (ctx) =>
    listContacts(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.query, ctx.meter),
  );
  defineRoute(app, deps, 'contacts.create', (ctx) =>
    createContact(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.body,
      ctx.now,
      ctx.ignored,
    ),
  );
  defineRoute(app, deps, 'contacts.update', (ctx) =>
    updateContact(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.params.id,
      ctx.body,
      ctx.now,
      ctx.ignored,
    ),
  );
  defineRoute(app, deps, 'contacts.delete', async (ctx) => {
    await deleteContact(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id);
    return { success: 1 as const };
  });
}
