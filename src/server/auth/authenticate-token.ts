import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { principalOfAdministrator } from '../oauth/administrator-principal.ts';
import { scopeSet, type Scope } from '../oauth/scopes.ts';
import { findLiveAccessToken } from '../oauth/tokens.repository.ts';
import { addressInCidr } from './cidr.ts';
import { hashKey } from './keys.ts';
import type { Principal } from './principal.ts';

/**
 * Access tokens carry this prefix; API keys (43 base64url characters) never contain a period, so a
 * Bearer value is looked up in one table only.
 */
export const ACCESS_TOKEN_PREFIX = 'lkat.';
export const REFRESH_TOKEN_PREFIX = 'lkrt.';

export function isAccessToken(value: string): boolean {
  return value.startsWith(ACCESS_TOKEN_PREFIX);
}

/** Who calls with an access token, and the scopes that bind them on top of their permissions. */
export interface TokenPrincipal {
  principal: Principal;
  scopes: ReadonlySet<Scope>;
  grantId: number;
  sessionId: number | null;
}

/**
 * Spec §5.2 rule 3: an access token works like a key, with the account and permissions of the
 * administrator who granted it (as they are now), restricted by the granted scopes. null for an
 * unknown, expired or revoked token, or an address outside the administrator's `cidr`.
 */
export async function findTokenPrincipal(
  db: Kysely<Database>,
  token: string,
  remoteAddress: string,
  now: Date,
): Promise<TokenPrincipal | null> {
  const row = await findLiveAccessToken(db, hashKey(token), now.toISOString());
  if (!row) return null;
  if (row.cidr && !addressInCidr(remoteAddress, row.cidr)) return null;
  return {
    principal: principalOfAdministrator(row),
    // A grant narrowed after this token was issued narrows the token at once.
    scopes: intersect(scopeSet(row.scope), scopeSet(row.grant_scope)),
    grantId: row.grant_id,
    sessionId: row.session_id,
  };
}

function intersect(a: ReadonlySet<Scope>, b: ReadonlySet<Scope>): ReadonlySet<Scope> {
  return new Set([...a].filter((scope) => b.has(scope)));
}
