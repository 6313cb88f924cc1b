import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';
import {
  createList,
  deleteList,
  getList,
  getLists,
  updateListAnswering,
} from '../services/lists.service.ts';
import type { ListQuery } from '../../api/schemas/list.ts';
import { requireAccount } from './route-support.ts';

function membersAs(query: ListQuery): 'ids' | 'count' {
  return query.contacts === 'count' ? 'count' : 'ids';
}

/** Spec §4.4: the lists endpoints; `:name` is the list name. */
export function registerListsRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Extension: `contacts=count` answers each list's member count instead of its ids (LIST_QUERY_EXTENSIONS).
  defineRoute(app, deps, 'lists.list', (ctx) =>
    getLists(ctx.db, requireAccount(ctx.account), ctx.principal, ctx.meter, membersAs(ctx.query)),
  );

  defineRoute(app, deps, 'lists.get', (ctx) =>
    getList(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.params.name,
      ctx.meter,
      membersAs(ctx.query),
    ),
  );

  defineRoute(app, deps, 'lists.create', (ctx) =>
    createList(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.body, ctx.now),
  );

  defineRoute(app, deps, 'lists.update', (ctx) =>
    updateListAnswering(
      ctx.db,
      requireAccount(ctx.account),
      ctx.principal,
      ctx.params.name,
      ctx.body,
      ctx.meter,
      membersAs(ctx.query),
      ctx.commit,
    ),
  );

  defineRoute(app, deps, 'lists.delete', async (ctx) => {
    await deleteList(
      ctx.db,
      requireAccount(ctx.account).id,
      ctx.principal,
      ctx.params.name,
      ctx.commit,
    );
    return { success: 1 } as const;
  });
}
