import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute, type RouteContext } from '../http/define-route.ts';
import { memberLinks } from '../members/links.ts';
import type { MembersContext } from '../members/workflow.ts';
import { actOnRequest, actOnRequestsBulk, listRequests } from '../services/requests.service.ts';
import { linkKey } from '../tokens/signed-link.ts';
import { requireAccount } from './route-support.ts';
import type { OperationName } from '../../api/operations.ts';

/** Reference-server extension (operations.ts `requests.*`, issue 25): the join and leave queue. */
export function registerRequestsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const members = async <K extends OperationName>(ctx: RouteContext<K>): Promise<MembersContext> => ({
    db: ctx.db,
    now: ctx.now,
    links: memberLinks(deps.publicOrigin()),
    linkKey: await linkKey(deps.db),
  });
  defineRoute(app, deps, 'requests.list', (ctx) =>
    listRequests(ctx.db, requireAccount(ctx.account).id, ctx.principal, ctx.query, ctx.meter),
  );
  defineRoute(app, deps, 'requests.approve', async (ctx) =>
    actOnRequest(await members(ctx), requireAccount(ctx.account).id, ctx.principal, ctx.params.id, 'approve'),
  );
  defineRoute(app, deps, 'requests.reject', async (ctx) =>
    actOnRequest(
      await members(ctx),
      requireAccount(ctx.account).id,
      ctx.principal,
      ctx.params.id,
      'reject',
      ctx.body.reason,
    ),
  );
  defineRoute(app, deps, 'requests.discard', async (ctx) =>
    actOnRequest(await members(ctx), requireAccount(ctx.account).id, ctx.principal, ctx.params.id, 'discard'),
  );
  defineRoute(app, deps, 'requests.bulk', async (ctx) =>
    actOnRequestsBulk(await members(ctx), requireAccount(ctx.account).id, ctx.principal, ctx.body),
  );
}
