import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export async function insertAccessToken(
  db: Kysely<Database>,
  row: { token_hash: string; grant_id: number; scope: string; created: string; expires_at: string },
): Promise<void> {
  await db.insertInto('oauth_access_tokens').values(row).execute();
}

export async function insertRefreshToken(
  db: Kysely<Database>,
  row: { token_hash: string; grant_id: number; created: string },
): Promise<void> {
  await db.insertInto('oauth_refresh_tokens').values({ ...row, used_at: null }).execute();
}

export interface AccessTokenPrincipalRow {
  grant_id: number;
  session_id: number | null;
  scope: string;
  /** The grant's scope now: narrowed by a refresh or by a permission taken away (SECURITY.md 32). */
  grant_scope: string;
  administrator_id: number;
  account_id: number | null;
  permissions: string;
  limit_lists: string;
  limit_metadata: string;
  cidr: string | null;
}

/**
 * The hot path of a request with an access token (spec §5.2 rule 3): one query for the token, its
 * grant (not revoked) and the administrator who granted it, with the administrator's permissions as
 * they are now.
 */
export function findLiveAccessToken(
  db: Kysely<Database>,
  tokenHash: string,
  nowIso: string,
): Promise<AccessTokenPrincipalRow | undefined> {
  return db
    .selectFrom('oauth_access_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_access_tokens.grant_id')
    .innerJoin('administrators', 'administrators.id', 'oauth_grants.administrator_id')
    .select([
      'oauth_access_tokens.grant_id',
      'oauth_grants.session_id',
      'oauth_access_tokens.scope',
      'oauth_grants.scope as grant_scope',
      'administrators.id as administrator_id',
      'administrators.account_id',
      'administrators.permissions',
      'administrators.limit_lists',
      'administrators.limit_metadata',
      'administrators.cidr',
    ])
    .where('oauth_access_tokens.token_hash', '=', tokenHash)
    .where('oauth_access_tokens.expires_at', '>', nowIso)
    .where('oauth_grants.revoked_at', 'is', null)
    .executeTakeFirst();
}

export interface RefreshTokenRow {
  id: number;
  grant_id: number;
  client_id: number;
  scope: string;
  grant_expires_at: string;
  revoked_at: string | null;
}

export function findRefreshToken(db: Kysely<Database>, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db
    .selectFrom('oauth_refresh_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_refresh_tokens.grant_id')
    .select([
      'oauth_refresh_tokens.id',
      'oauth_refresh_tokens.grant_id',
      'oauth_grants.client_id',
      'oauth_grants.scope',
      'oauth_grants.expires_at as grant_expires_at',
      'oauth_grants.revoked_at',
    ])
    .where('oauth_refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** SECURITY.md 5: rotation is one conditional update; true for the one caller that wins. */
export async function claimRefreshToken(db: Kysely<Database>, tokenId: number, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth_refresh_tokens')
    .set({ used_at: nowIso })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
