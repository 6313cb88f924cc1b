import type { OperationName } from '../../api/operations.ts';
import {
  OBJECT_TYPE_OF_RESOURCE,
  type AuditSubject,
  type WriteOperationName,
} from '../audit/api-subject.ts';
import { API_SUBJECTS } from '../audit/api-subjects.ts';
import type { AuditSource } from '../audit/audit-record.ts';
import { trailOf } from '../audit/audit-trail.ts';
import { recordAudit } from '../audit/record.ts';
import { callerAddress } from '../auth/caller-address.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from './app-deps.ts';
import type { JsonText } from './json-text.ts';
import type { OperationPolicy } from './operation-policy.ts';
import type { HandlerResult, RouteContext, RouteHandler } from './route-context.ts';
import { transactionFor } from './transaction-choice.ts';

/** A request's context before its work is given a database. */
export type RouteParts<K extends OperationName> = Omit<RouteContext<K>, 'db' | 'commit' | 'audit'>;

export type RouteWork<K extends OperationName> = (
  parts: RouteParts<K>,
  handler: RouteHandler<K>,
) => Promise<HandlerResult<K> | JsonText>;

/**
 * The route pipeline's work step: a read on the pool; a write in its transaction, recorded in the
 * audit log in that same transaction (issue 26 item 4: an acknowledged write has its entry, a
 * write that failed has none), by the operation's subject (audit/api-subjects.ts): the object read
 * before the handler where it must be, the entry written after it, who and from where from the
 * request (the person's address behind a proxy named in TRUST_PROXY, auth/caller-address.ts). A
 * write in steps records in its last transaction (`ctx.commit`). A write that recorded nothing
 * (a subject that found nothing to say) still gets an entry naming the operation: every write
 * through the API is in the log.
 */
export function workFor<K extends OperationName>(
  deps: AppDeps,
  name: K,
  policy: OperationPolicy,
  isWrite: boolean,
): RouteWork<K> {
  const runWork = transactionFor(deps, policy, isWrite);
  if (!isWrite || !deps.auditLog)
    return (parts, handler) =>
      runWork((db) => handler({ ...parts, db, commit: ownTransaction(db, deps), audit: {} }));
  const write = name as K & WriteOperationName;
  const subject = API_SUBJECTS[write] as AuditSubject<typeof write> | 'service';
  const record = async (
    db: Kysely<Database>,
    ctx: RouteContext<typeof write>,
    seen: { before: unknown; prelude: unknown; answer: unknown },
  ) => {
    if (subject !== 'service') await recordAudit(db, ctx.now, await subject.records(db, ctx, seen));
    if (trailOf(db).recorded === 0) await recordAudit(db, ctx.now, [bareEntry(write, ctx)]);
  };
  const before = (db: Kysely<Database>, ctx: RouteContext<typeof write>, prelude: unknown) =>
    subject !== 'service' && subject.before ? subject.before(db, ctx, prelude) : null;

  if (policy.transaction === 'one')
    return (parts, handler) =>
      runWork(async (db) => {
        const ctx = {
          ...parts,
          db,
          commit: ownTransaction(db, deps),
          audit: {},
        } as RouteContext<K>;
        const written = ctx as unknown as RouteContext<typeof write>;
        const seen = await before(db, written, undefined);
        const answer = await handler(ctx);
        await record(db, written, { before: seen, prelude: undefined, answer });
        return answer;
      }, sourceOf(parts));

  return async (parts, handler) => {
    const ctx = { ...parts, db: deps.db, audit: {} } as RouteContext<K>;
    const written = ctx as unknown as RouteContext<typeof write>;
    const prelude =
      subject !== 'service' && subject.prelude ? await subject.prelude(written) : undefined;
    ctx.commit = (work) =>
      deps.unitOfWork(async (trx) => {
        const seen = await before(trx, written, prelude);
        const result = await work(trx);
        await record(trx, written, { before: seen, prelude, answer: undefined });
        return result;
      }, sourceOf(parts));
    return runWork(() => handler(ctx));
  };
}

/** Who makes an API write, from where: the administrator behind the key or token, at its address. */
function sourceOf(parts: RouteParts<OperationName>): AuditSource {
  return {
    actor: { type: 'administrator', id: parts.principal.administratorId },
    address: callerAddress(parts.request),
    service: 'api',
  };
}

/** A 'one' route's `commit` is its own transaction; a read's, a unit of work of its own. */
function ownTransaction(
  db: Kysely<Database>,
  deps: AppDeps,
): RouteContext<OperationName>['commit'] {
  return db === deps.db ? deps.unitOfWork : (work) => work(db);
}

/** The entry of a write its subject said nothing of: the operation and the object its path names. */
function bareEntry(name: WriteOperationName, ctx: RouteContext<WriteOperationName>) {
  const params = ctx.params as { id?: string; name?: string };
  const resource = name.slice(0, name.indexOf('.')) as keyof typeof OBJECT_TYPE_OF_RESOURCE;
  return {
    accountId: ctx.account?.id ?? null,
    operation: name,
    object: {
      type: OBJECT_TYPE_OF_RESOURCE[resource],
      id: params.id ?? params.name ?? ctx.audit.objectId ?? null,
    },
  };
}
