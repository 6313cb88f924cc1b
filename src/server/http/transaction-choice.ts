import type { Kysely } from 'kysely';
import type { AuditSource } from '../audit/audit-record.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from './app-deps.ts';
import type { OperationPolicy } from './operation-policy.ts';

/** Runs a route's work on the database it chose: the pool, or a transaction with its audit source. */
export type RunWork = <T>(
  work: (db: Kysely<Database>) => Promise<T>,
  source?: Partial<AuditSource>,
) => Promise<T>;

/**
 * Where a route's work runs, chosen once when the route is registered: a read on the pool; a
 * write in one unit of work (db/unit-of-work.ts), unless its handler opens its own transactions
 * (`transaction: 'steps'`, http/operation-policy.ts). A write that may change a key or an account
 * (`emptiesAuthCache`) empties the auth cache once it committed. A read pays nothing for either.
 */
export function transactionFor(deps: AppDeps, policy: OperationPolicy, isWrite: boolean): RunWork {
  const onPool: RunWork = (work) => work(deps.db);
  if (!isWrite) return onPool;
  const run = policy.transaction === 'one' ? deps.unitOfWork : onPool;
  if (!policy.emptiesAuthCache) return run;
  return async (work, source) => {
    const answered = await run(work, source);
    // Committed: the next request, in this process, sees a revoked key or a changed account.
    deps.authCache.forget();
    return answered;
  };
}
