import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import {
  actOnHeld,
  actOnHeldBulk,
  getHeld,
  getHeldSource,
  listHeld,
} from '../services/held.service.ts';
import { requireAccount } from './route-support.ts';

/** Reference-server extension (operations.ts `held.*`): the held queue. */
export function registerHeldRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'held.list', (ctx) =>
    listHeld(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.query, ctx.meter),
  );
  defineRoute(app, deps, 'held.get', (ctx) =>
    getHeld(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.params.id ?? ''),
  );
  defineRoute(app, deps, 'held.source', (ctx) =>
    getHeldSource(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.params.id ?? ''),
  );
  defineRoute(app, deps, 'held.approve', (ctx) =>
    actOnHeld(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.params.id ?? '',
      'approve',
      ctx.now,
    ),
  );
  defineRoute(app, deps, 'held.reject', (ctx) =>
    actOnHeld(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.params.id ?? '',
      'reject',
      ctx.now,
      ctx.body.reason,
    ),
  );
  defineRoute(app, deps, 'held.discard', (ctx) =>
    actOnHeld(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.params.id ?? '',
      'discard',
      ctx.now,
    ),
  );
  defineRoute(app, deps, 'held.bulk', (ctx) =>
    actOnHeldBulk(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.body, ctx.now),
  );
}
