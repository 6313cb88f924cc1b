import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export async function insertGrant(
  db: Kysely<Database>,
  row: { client_id: number; administrator_id: number; session_id: number | null; scope: string; created: string; expires_at: string },
): Promise<number> {
  const inserted = await db.insertInto('oauth_grants').values({ ...row, revoked_at: null }).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** Revoking the grant revokes every token issued from it: tokens are checked through their grant. */
export async function revokeGrant(db: Kysely<Database>, grantId: number, nowIso: string): Promise<void> {
  await db.updateTable('oauth_grants').set({ revoked_at: nowIso }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
}

export async function revokeSessionGrants(db: Kysely<Database>, sessionId: number, nowIso: string): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ revoked_at: nowIso })
    .where('session_id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function insertCode(
  db: Kysely<Database>,
  row: { code_hash: string; grant_id: number; redirect_uri: string; code_challenge: string | null; created: string; expires_at: string },
): Promise<void> {
  await db.insertInto('oauth_codes').values({ ...row, used_at: null }).execute();
}

export interface CodeRow {
  id: number;
  grant_id: number;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: string;
  used_at: string | null;
  client_id: number;
  scope: string;
  grant_expires_at: string;
  revoked_at: string | null;
}

export function findCode(db: Kysely<Database>, codeHash: string): Promise<CodeRow | undefined> {
  return db
    .selectFrom('oauth_codes')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_codes.grant_id')
    .select([
      'oauth_codes.id',
      'oauth_codes.grant_id',
      'oauth_codes.redirect_uri',
      'oauth_codes.code_challenge',
      'oauth_codes.expires_at',
      'oauth_codes.used_at',
      'oauth_grants.client_id',
      'oauth_grants.scope',
      'oauth_grants.expires_at as grant_expires_at',
      'oauth_grants.revoked_at',
    ])
    .where('oauth_codes.code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** SECURITY.md 4: the one atomic step that makes a code single-use; true for the one caller that wins. */
export async function claimCode(db: Kysely<Database>, codeId: number, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth_codes')
    .set({ used_at: nowIso })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Housekeeping on consent: grants past their absolute end (their codes and tokens go with them),
 * codes long expired, access tokens long expired. Used codes and refresh tokens stay as long as
 * their grant lives, so a replay is still recognised (SECURITY.md 4, 5).
 */
export async function purgeExpiredGrants(db: Kysely<Database>, nowIso: string, graceIso: string): Promise<void> {
  await db.deleteFrom('oauth_grants').where('expires_at', '<=', nowIso).execute();
  await db.deleteFrom('oauth_codes').where('expires_at', '<=', graceIso).execute();
  await db.deleteFrom('oauth_access_tokens').where('expires_at', '<=', graceIso).execute();
}

/** The administrator behind a grant, with the permissions that bound the scopes they can give. */
export function findGranter(
  db: Kysely<Database>,
  administratorId: number,
): Promise<
  | { administrator_id: number; account_id: number | null; permissions: string; limit_lists: string; limit_metadata: string }
  | undefined
> {
  return db
    .selectFrom('administrators')
    .select(['id as administrator_id', 'account_id', 'permissions', 'limit_lists', 'limit_metadata'])
    .where('id', '=', administratorId)
    .executeTakeFirst();
}

/** RFC 6749 §6: a refresh that narrows the scope narrows the grant, so a later refresh cannot widen it again. */
export async function setGrantScope(db: Kysely<Database>, grantId: number, scope: string): Promise<void> {
  await db.updateTable('oauth_grants').set({ scope }).where('id', '=', grantId).execute();
}

/** The live grants of an administrator, for narrowing them when a permission is taken away. */
export function selectLiveGrants(db: Kysely<Database>, administratorId: number): Promise<{ id: number; scope: string }[]> {
  return db
    .selectFrom('oauth_grants')
    .select(['id', 'scope'])
    .where('administrator_id', '=', administratorId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** SECURITY.md 32: a password change ends every grant (and so every token) the administrator gave. */
export async function revokeAdministratorGrants(db: Kysely<Database>, administratorId: number, nowIso: string): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ revoked_at: nowIso })
    .where('administrator_id', '=', administratorId)
    .where('revoked_at', 'is', null)
    .execute();
}
