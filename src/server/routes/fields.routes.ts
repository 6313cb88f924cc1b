import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import {
  defineField,
  deleteField,
  listFields,
  renameField,
} from '../services/custom-fields.service.ts';
import { requireAccount } from './route-support.ts';

/** Reference-server extension (operations.ts `fields.*`): the account's custom contact fields. */
export function registerFieldsRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'fields.list', (ctx) =>
    listFields(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.meter),
  );
  defineRoute(app, deps, 'fields.create', (ctx) =>
    defineField(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.body),
  );
  defineRoute(app, deps, 'fields.update', (ctx) =>
    renameField(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id, ctx.body),
  );
  defineRoute(app, deps, 'fields.delete', (ctx) =>
    deleteField(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.params.id, ctx.commit),
  );
}
