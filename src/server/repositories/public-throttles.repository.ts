import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Counts one more under `key` in the window starting at `windowStart` (Unix seconds), unless that
 * would pass `limit`: one statement, so parallel requests never together pass it (SECURITY.md 43).
 * Answers whether the count was taken.
 */
export async function countWithin(
  db: Kysely<Database>,
  key: string,
  windowStart: number,
  limit: number,
): Promise<boolean> {
  const result = await sql<{ count: number }>`
    insert into public_throttles (throttle_key, window_start, count) values (${key}, ${windowStart}, 1)
    on conflict (throttle_key, window_start) do update set count = public_throttles.count + 1
    where public_throttles.count < ${limit}
    returning count`.execute(db);
  return result.rows.length === 1;
}

/** Counters of windows that ended before `before` (Unix seconds). */
export async function deleteOldThrottles(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('public_throttles').where('window_start', '<', before).execute();
}
