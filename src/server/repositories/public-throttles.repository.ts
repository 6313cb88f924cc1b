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

/**
 * Records a mail under `key` at `now` (Unix seconds) unless the last one went less than `seconds`
 * before: one statement, so parallel requests never both mail (SECURITY.md 43). Answers whether
 * it was recorded.
 */
export async function takeOncePer(
  db: Kysely<Database>,
  key: string,
  now: number,
  seconds: number,
): Promise<boolean> {
  const result = await sql<{ last_sent: number }>`
    insert into public_mail_times (throttle_key, last_sent) values (${key}, ${now})
    on conflict (throttle_key) do update set last_sent = excluded.last_sent
    where public_mail_times.last_sent <= excluded.last_sent - ${seconds}
    returning last_sent`.execute(db);
  return result.rows.length === 1;
}

/** Counters of windows that ended, and mail times older than a window, before `before` (Unix seconds). */
export async function deleteOldThrottles(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('public_throttles').where('window_start', '<', before).execute();
  await db.deleteFrom('public_mail_times').where('last_sent', '<=', before).execute();
}
