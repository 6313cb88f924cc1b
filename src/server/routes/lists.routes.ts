import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { AfterCommit } from '../http/after-commit.ts';
import { defineRoute } from '../http/define-route.ts';
import {
  createList,
  deleteList,
  getList,
  getLists,
  listWithMembers,
  updateList,
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
    createList(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.body),
  );

  defineRoute(app, deps, 'lists.update', async (ctx) => {
    const account = requireAccount(ctx.account);
    const row = await updateList(ctx.db, account, ctx.principal, ctx.params.name, ctx.body);
    // The member ids, perhaps a million, are read after the commit, off the writer's connection
    // (SECURITY.md 29): an update changes none of them.
    return new AfterCommit((db) => listWithMembers(db, account, row));
  });

  defineRoute(app, deps, 'lists.delete', async (ctx) => {
    await deleteList(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.params.name);
    return { success: 1 } as const;
  });
}
