import type { Kysely } from 'kysely';
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from '../auth/authenticate-token.ts';
import { generateKey, hashKey } from '../auth/keys.ts';
import type { Database } from '../db/schema.ts';
import { authenticateClient, clientCredentials } from './clients.service.ts';
import { claimCode, findCode, revokeGrant, setGrantScope } from './grants.repository.ts';
import { OAuthError, invalidGrant, invalidRequest } from './oauth-error.ts';
import { verifierMatches } from './pkce.ts';
import { formatScope, parseScope, scopeSet } from './scopes.ts';
import { claimRefreshToken, findRefreshToken, insertAccessToken, insertRefreshToken } from './tokens.repository.ts';

/** RFC 6749 §5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * Spec §4.9 and §5.2: the token endpoint (authorization_code and refresh_token grants) and the
 * refresh endpoint (refresh_token only). Errors are OAuthError (RFC 6749 §5.2, SECURITY.md 6).
 */
export async function tokenRequest(
  db: Kysely<Database>,
  form: URLSearchParams,
  authorization: string | undefined,
  endpoint: 'token' | 'refresh',
  now: Date,
  /** Issue #4: access tokens are short-lived (OAUTH_ACCESS_TOKEN_SECONDS). */
  accessTokenSeconds: number,
): Promise<TokenResponse> {
  // RFC 6749 §3.2: parameters must not be repeated.
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) throw invalidRequest(`${name} is given more than once`);
  }
  const grantType = form.get('grant_type') ?? (endpoint === 'refresh' ? 'refresh_token' : null);
  if (!grantType) throw invalidRequest('grant_type is required');
  const supported = endpoint === 'refresh' ? ['refresh_token'] : ['authorization_code', 'refresh_token'];
  // SECURITY.md 6: no password (or any other) grant.
  if (!supported.includes(grantType)) {
    throw new OAuthError('unsupported_grant_type', `This endpoint accepts grant_type ${supported.join(' or ')}`);
  }
  const client = await authenticateClient(db, clientCredentials(form, authorization));
  const issue = { now, accessTokenSeconds };
  return grantType === 'authorization_code'
    ? redeemCode(db, form, client.id, issue)
    : refresh(db, form, client.id, issue);
}

/** When the tokens are issued, and how long the access token lives. */
interface Issue {
  now: Date;
  accessTokenSeconds: number;
}

/** RFC 6749 §4.1.3 with SECURITY.md 2, 3 and 4. */
async function redeemCode(db: Kysely<Database>, form: URLSearchParams, clientRowId: number, issue: Issue): Promise<TokenResponse> {
  const code = form.get('code');
  if (!code) throw invalidRequest('code is required');
  const redirectUri = form.get('redirect_uri');
  if (!redirectUri) throw invalidRequest('redirect_uri is required');
  const verifier = form.get('code_verifier');
  const nowIso = issue.now.toISOString();

  const row = await findCode(db, hashKey(code));
  if (!row) throw invalidGrant('The code is not valid');
  // Checked before the code is spent, so a client holding a stolen code cannot burn it.
  if (row.client_id !== clientRowId) throw invalidGrant('The code was issued to another client');
  // A code seen used goes straight to the claim below, which fails and revokes: a replay is a
  // replay however late it comes.
  if (row.used_at === null) {
    if (row.expires_at <= nowIso) throw invalidGrant('The code has expired');
    if (row.revoked_at !== null || row.grant_expires_at <= nowIso) throw invalidGrant('The authorization was revoked');
    if (row.redirect_uri !== redirectUri) throw invalidGrant('redirect_uri differs from the authorization request');
    if (row.code_challenge !== null) {
      if (!verifier || !verifierMatches(verifier, row.code_challenge)) throw invalidGrant('code_verifier does not match the code_challenge');
    } else if (verifier !== null) {
      throw invalidGrant('code_verifier was sent, but the authorization request had no code_challenge');
    }
  }

  // The conditional update is the one judge of "first use", whether the other use came long
  // before or a millisecond before in another process (SECURITY.md 4).
  const issued = await db.transaction().execute(async (trx) => {
    if (!(await claimCode(trx, row.id, nowIso))) {
      // RFC 6819 §5.1.5.4: a replayed code revokes every token issued from it.
      await revokeGrant(trx, row.grant_id, nowIso);
      return null;
    }
    return issueTokens(trx, { id: row.grant_id, expiresAt: row.grant_expires_at }, row.scope, issue);
  });
  if (!issued) throw invalidGrant('The code was already used; the tokens issued from it are revoked');
  return issued;
}

/** RFC 6749 §6 with SECURITY.md 5: rotation, reuse detection, a fixed absolute lifetime. */
async function refresh(db: Kysely<Database>, form: URLSearchParams, clientRowId: number, issue: Issue): Promise<TokenResponse> {
  const token = form.get('refresh_token');
  if (!token) throw invalidRequest('refresh_token is required');
  const nowIso = issue.now.toISOString();

  const row = await findRefreshToken(db, hashKey(token));
  if (!row) throw invalidGrant('The refresh token is not valid');
  if (row.client_id !== clientRowId) throw invalidGrant('The refresh token was issued to another client');
  if (row.revoked_at !== null) throw invalidGrant('The authorization was revoked');
  if (row.grant_expires_at <= nowIso) throw invalidGrant('The authorization has expired; ask the user again');
  let scope = row.scope;
  const requested = form.get('scope');
  if (requested !== null && requested.trim() !== '') {
    // RFC 6749 §6: a narrower scope may be asked for, never a wider one.
    const names = parseScope(requested);
    const granted = scopeSet(row.scope);
    if (!names || !names.every((name) => granted.has(name))) {
      throw new OAuthError('invalid_scope', 'scope may only narrow the scopes granted');
    }
    scope = formatScope(names);
  }

  const issued = await db.transaction().execute(async (trx) => {
    if (!(await claimRefreshToken(trx, row.id, nowIso))) {
      // RFC 9700 §4.14.2: a rotated token came back; someone holds a copy, so the whole grant goes.
      await revokeGrant(trx, row.grant_id, nowIso);
      return null;
    }
    // README "OAuth": scope may narrow, never widen. The narrowing is the grant's from now on, so a
    // later refresh without `scope` does not get the wider grant back.
    if (scope !== row.scope) await setGrantScope(trx, row.grant_id, scope);
    return issueTokens(trx, { id: row.grant_id, expiresAt: row.grant_expires_at }, scope, issue);
  });
  if (!issued) throw invalidGrant('The refresh token was already used; the authorization is revoked');
  return issued;
}

/** A new access token (its lifetime, never past the grant's end) and the next refresh token. */
async function issueTokens(
  db: Kysely<Database>,
  grant: { id: number; expiresAt: string },
  scope: string,
  { now, accessTokenSeconds }: Issue,
): Promise<TokenResponse> {
  const accessToken = `${ACCESS_TOKEN_PREFIX}${generateKey()}`;
  const refreshToken = `${REFRESH_TOKEN_PREFIX}${generateKey()}`;
  const expiresAt = Math.min(now.getTime() + accessTokenSeconds * 1000, Date.parse(grant.expiresAt));
  const created = now.toISOString();
  await insertAccessToken(db, {
    token_hash: hashKey(accessToken),
    grant_id: grant.id,
    scope,
    created,
    expires_at: new Date(expiresAt).toISOString(),
  });
  await insertRefreshToken(db, { token_hash: hashKey(refreshToken), grant_id: grant.id, created });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.floor((expiresAt - now.getTime()) / 1000)),
    refresh_token: refreshToken,
    scope,
  };
}
