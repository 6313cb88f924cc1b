import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface SessionRow {
  id: number;
  administrator_id: number | null;
  username: string | null;
  expires_at: string;
}

export async function insertSession(
  db: Kysely<Database>,
  row: { session_hash: string; administrator_id: number | null; created: string; expires_at: string },
): Promise<number> {
  const inserted = await db.insertInto('oauth_sessions').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** A live session by its cookie's hash, with the signed-in administrator's username. */
export function findLiveSession(db: Kysely<Database>, sessionHash: string, nowIso: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('oauth_sessions')
    .leftJoin('administrators', 'administrators.id', 'oauth_sessions.administrator_id')
    .select(['oauth_sessions.id', 'oauth_sessions.administrator_id', 'administrators.username', 'oauth_sessions.expires_at'])
    .where('oauth_sessions.session_hash', '=', sessionHash)
    .where('oauth_sessions.expires_at', '>', nowIso)
    .executeTakeFirst();
}

export async function deleteSession(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('oauth_sessions').where('id', '=', id).execute();
}

/**
 * Counts one sign-in attempt and returns the window's total, in one atomic statement: parallel
 * guesses cannot all slip under the limit (SECURITY.md 7).
 */
export async function chargeLoginAttempt(db: Kysely<Database>, throttleKey: string, windowStart: number): Promise<number> {
  const row = await db
    .insertInto('oauth_login_attempts')
    .values({ throttle_key: throttleKey, window_start: windowStart, attempts: 1 })
    .onConflict((oc) =>
      oc.columns(['throttle_key', 'window_start']).doUpdateSet((eb) => ({
        attempts: eb('oauth_login_attempts.attempts', '+', 1),
      })),
    )
    .returning('attempts')
    .executeTakeFirstOrThrow();
  return Number(row.attempts);
}

/** A successful sign-in is not a failure: it takes its own charge back. */
export async function refundLoginAttempt(db: Kysely<Database>, throttleKey: string, windowStart: number): Promise<void> {
  await db
    .updateTable('oauth_login_attempts')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('throttle_key', '=', throttleKey)
    .where('window_start', '=', windowStart)
    .where('attempts', '>', 0)
    .execute();
}

export async function clearLoginAttempts(db: Kysely<Database>, throttleKey: string): Promise<void> {
  await db.deleteFrom('oauth_login_attempts').where('throttle_key', '=', throttleKey).execute();
}

/** Someone who can sign in: a person (not an API key) with a password. */
export function findSignInAdministrator(
  db: Kysely<Database>,
  username: string,
): Promise<{ id: number; password_hash: string | null } | undefined> {
  return db
    .selectFrom('administrators')
    .select(['id', 'password_hash'])
    .where('username', '=', username)
    .where('api', '=', 0)
    .executeTakeFirst();
}

export async function deleteExpiredSessions(db: Kysely<Database>, nowIso: string): Promise<void> {
  await db.deleteFrom('oauth_sessions').where('expires_at', '<=', nowIso).execute();
}

/** Housekeeping on sign-in: throttling windows that have ended. */
export async function purgeExpiredLoginAttempts(db: Kysely<Database>, windowStart: number): Promise<void> {
  await db.deleteFrom('oauth_login_attempts').where('window_start', '<', windowStart).execute();
}

/** SECURITY.md 32: a password change signs the administrator out of every browser. */
export async function deleteAdministratorSessions(db: Kysely<Database>, administratorId: number): Promise<void> {
  await db.deleteFrom('oauth_sessions').where('administrator_id', '=', administratorId).execute();
}
