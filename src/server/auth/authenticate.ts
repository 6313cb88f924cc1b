import type { Kysely } from 'kysely';
import * as z from 'zod';
import { PERMISSIONS } from '../../api/constants.ts';
import { AUTHENTICATION_FAILED } from '../../api/constants.ts';
import { HttpError } from '../http/http-error.ts';
import type { Database } from '../db/schema.ts';
import type { Scope } from '../oauth/scopes.ts';
import type { MaybePromise } from '../lib/maybe-promise.ts';
import type { AuthCache, KeyGrant } from './auth-cache.ts';
import { findTokenPrincipal, isAccessToken } from './authenticate-token.ts';
import { addressInCidr } from './cidr.ts';
import { findKeyHolder } from '../repositories/administrators.repository.ts';
import { hashKey } from './keys.ts';
import type { Principal } from './principal.ts';

const Permissions = z.array(z.enum(PERMISSIONS));
const Names = z.array(z.string());

/** Spec §5.1 rule 6 and SECURITY.md 19: one answer for every kind of failure. */
export function authenticationFailed(): HttpError {
  return new HttpError(401, AUTHENTICATION_FAILED, {
    'www-authenticate': 'Basic realm="Listkeeper API", Bearer realm="Listkeeper API"',
  });
}

/** Spec §5.1 rule 4: `Basic base64(key:)` (empty or omitted password) or `Bearer key`. */
export function keyFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (bearer) return bearer[1] ?? null;
  const basic = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!basic?.[1]) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const key = colon === -1 ? decoded : decoded.slice(0, colon);
  const password = colon === -1 ? '' : decoded.slice(colon + 1);
  return key && password === '' ? key : null;
}

/** The caller of an API request; `scopes` is null for an API key (bound by its permissions only). */
export interface Authenticated {
  principal: Principal;
  scopes: ReadonlySet<Scope> | null;
}

/**
 * Spec §5.1 and §5.2 rule 3: the Authorization header carries an API key, or (Bearer only) an OAuth
 * access token, which acts with the granting administrator's account and permissions, restricted by
 * its scopes. Any failure is the same 401 (SECURITY.md 19). A key the cache holds is answered at
 * once, without a promise (auth/auth-cache.ts).
 */
export function authenticate(
  db: Kysely<Database>,
  cache: AuthCache,
  header: string | undefined,
  remoteAddress: string,
  now: Date,
): MaybePromise<Authenticated> {
  const value = keyFromHeader(header);
  if (value === null || header === undefined) throw authenticationFailed();
  if (isAccessToken(value)) return authenticateToken(db, header, value, remoteAddress, now);
  const grant = cache.key(header, () => findKeyGrant(db, hashKey(value)));
  return grant instanceof Promise
    ? grant.then((found) => keyCaller(found, remoteAddress, now))
    : keyCaller(grant, remoteAddress, now);
}

async function authenticateToken(
  db: Kysely<Database>,
  header: string,
  token: string,
  remoteAddress: string,
  now: Date,
): Promise<Authenticated> {
  if (!/^Bearer /i.test(header)) throw authenticationFailed();
  const found = await findTokenPrincipal(db, token, remoteAddress, now);
  if (!found) throw authenticationFailed();
  return { principal: found.principal, scopes: found.scopes };
}

/**
 * What a key grants may come from the cache; its expiry and cidr are checked here every time, so
 * an expired key is refused at the instant it expires.
 */
function keyCaller(grant: KeyGrant | undefined, remoteAddress: string, now: Date): Authenticated {
  if (!grant) throw authenticationFailed();
  if (grant.expiresAt !== null && grant.expiresAt <= now.getTime()) throw authenticationFailed();
  if (grant.cidr && !addressInCidr(remoteAddress, grant.cidr)) throw authenticationFailed();
  return { principal: grant.principal, scopes: null };
}

async function findKeyGrant(db: Kysely<Database>, keyHash: string): Promise<KeyGrant | undefined> {
  const row = await findKeyHolder(db, keyHash);
  if (!row) return undefined;
  return {
    principal: {
      administratorId: row.administrator_id,
      accountId: row.account_id,
      permissions: new Set(Permissions.parse(JSON.parse(row.permissions))),
      limitLists: Names.parse(JSON.parse(row.limit_lists)),
      limitMetadata: Names.parse(JSON.parse(row.limit_metadata)),
      keyExpiry: row.expires_at,
    },
    expiresAt: row.expires_at === null ? null : Date.parse(row.expires_at),
    cidr: row.cidr,
  };
}
