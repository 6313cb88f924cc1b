import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MaybePromise } from '../lib/maybe-promise.ts';

/**
 * Spec §8: use is counted in objects returned or affected, per account, per clock hour; the
 * allowance is 3 × the account's maximum address-book size. `charge` is the one atomic step: it adds
 * `cost` only if the total stays within the allowance, so parallel requests can never together
 * exceed it (SECURITY.md 20).
 */
export interface RateLimiter {
  charge(accountId: number, cost: number, allowance: number, now: Date): MaybePromise<RateCharge>;
  refund(accountId: number, windowStart: number, amount: number): Promise<void>;
}

export interface RateCharge {
  ok: boolean;
  used: number;
  windowStart: number;
  /** Unix seconds at which the window ends and the counter starts again. */
  resetAt: number;
}

export const ALLOWANCE_PER_CONTACT = 3;

function windowOf(now: Date, windowSeconds: number): { start: number; reset: number } {
  const seconds = Math.floor(now.getTime() / 1000);
  const start = seconds - (seconds % windowSeconds);
  return { start, reset: start + windowSeconds };
}

/** The embedded single-process mode: counters in memory, never on the fsync path. */
export function memoryRateLimiter(windowSeconds: number): RateLimiter {
  const counters = new Map<string, number>();
  return {
    charge(accountId, cost, allowance, now) {
      const { start, reset } = windowOf(now, windowSeconds);
      const key = `${accountId}:${start}`;
      const used = counters.get(key) ?? 0;
      if (used + cost > allowance) return { ok: false, used, windowStart: start, resetAt: reset };
      counters.set(key, used + cost);
      // Forget past windows so the map stays as small as the number of active accounts.
      if (counters.size > 10_000) for (const k of counters.keys()) if (!k.endsWith(`:${start}`)) counters.delete(k);
      return { ok: true, used: used + cost, windowStart: start, resetAt: reset };
    },
    refund(accountId, windowStart, amount) {
      const key = `${accountId}:${windowStart}`;
      const used = counters.get(key);
      if (used !== undefined) counters.set(key, Math.max(0, used - amount));
      return Promise.resolve();
    },
  };
}

/**
 * Several processes on one PostgreSQL: one conditional upsert on an UNLOGGED table, so the check
 * and the increment are a single atomic statement with no fsync.
 */
export function postgresRateLimiter(db: Kysely<Database>, windowSeconds: number): RateLimiter {
  return {
    async charge(accountId, cost, allowance, now) {
      const { start, reset } = windowOf(now, windowSeconds);
      if (cost <= allowance) {
        const result = await sql<{ used: number }>`
          insert into rate_counters (account_id, window_start, used) values (${accountId}, ${start}, ${cost})
          on conflict (account_id, window_start) do update set used = rate_counters.used + excluded.used
          where rate_counters.used + excluded.used <= ${allowance}
          returning used`.execute(db);
        const row = result.rows[0];
        if (row) return { ok: true, used: Number(row.used), windowStart: start, resetAt: reset };
      }
      // Refused: what is used, for the answer's X-RateLimit-Remaining (it need not be all).
      const counted = await sql<{ used: number }>`select used from rate_counters
        where account_id = ${accountId} and window_start = ${start}`.execute(db);
      return { ok: false, used: Number(counted.rows[0]?.used ?? 0), windowStart: start, resetAt: reset };
    },
    async refund(accountId, windowStart, amount) {
      await sql`update rate_counters set used = greatest(used - ${amount}, 0)
        where account_id = ${accountId} and window_start = ${windowStart}`.execute(db);
    },
  };
}
