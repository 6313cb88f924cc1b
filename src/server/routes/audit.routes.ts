import type { FastifyInstance } from 'fastify';
import { listAudit } from '../audit/audit-read.ts';
import type { AppDeps } from '../http/app-deps.ts';
import { defineRoute } from '../http/define-route.ts';

/**
 * Reference-server extension (operations.ts `audit.list`, issue 26 item 4): the audit log, read
 * only. Nothing in the API writes, changes or deletes an entry (SECURITY.md 49): they are written
 * with the changes they record (http/audited-write.ts) and purged by age (audit/retention.ts).
 */
export function registerAuditRoutes(app: FastifyInstance, deps: AppDeps): void {
  defineRoute(app, deps, 'audit.list', (ctx) =>
    listAudit(ctx.db, ctx.account, ctx.principal, ctx.query, ctx.meter),
  );
}
