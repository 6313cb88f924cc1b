import type { Kysely } from 'kysely';
import { generateKey, hashKey } from '../auth/keys.ts';
import { grantableScopes } from '../auth/grantable-scopes.ts';
import type { Database } from '../db/schema.ts';
import { principalOfAdministrator } from './administrator-principal.ts';
import { findClient, hasRedirectUri, type OAuthClientRow } from './clients.repository.ts';
import { findGranter, insertCode, insertGrant, purgeExpiredGrants } from './grants.repository.ts';
import { CODE_CHALLENGE_PATTERN } from './pkce.ts';
import { redirectUriProblem } from './redirect-uri.ts';
import { SCOPES, formatScope, parseScope, type Scope } from './scopes.ts';

/** SECURITY.md 4: a code lives at most 60 seconds. */
export const CODE_LIFETIME_SECONDS = 60;
/** SECURITY.md 5: the refresh tokens of a grant end 30 days after consent, however often rotated. */
export const GRANT_LIFETIME_SECONDS = 30 * 24 * 3600;

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3), carried through sign-in and consent. */
export const AUTHORIZATION_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

export interface AuthorizationRequest {
  client: OAuthClientRow;
  redirectUri: string;
  /** What the client asked for; every scope when it named none (RFC 6749 §3.3 default). */
  scopes: Scope[];
  state: string | null;
  codeChallenge: string | null;
  /** The request's own parameters, for the hidden fields of the sign-in and consent forms. */
  params: [string, string][];
}

export type AuthorizationCheck =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** SECURITY.md 1: the client or its redirect URI cannot be trusted: an error page, never a redirect. */
  | { kind: 'error-page'; message: string }
  /** RFC 6749 §4.1.2.1: the redirect URI is trusted, so the client hears about the error. */
  | { kind: 'error-redirect'; location: string };

/**
 * Validates an authorization request from the query (GET) or the hidden fields of a form (POST).
 * `confidentialOnly` (EXTENSIONS=off): a public client is refused, with an error page.
 */
export async function checkAuthorizationRequest(
  db: Kysely<Database>,
  source: URLSearchParams,
  issuer: string,
  { confidentialOnly = false }: { confidentialOnly?: boolean } = {},
): Promise<AuthorizationCheck> {
  const single = (name: string) => {
    const values = source.getAll(name);
    return values.length === 1 ? (values[0] ?? null) : values.length === 0 ? null : undefined;
  };
  const clientId = single('client_id');
  if (!clientId) return { kind: 'error-page', message: 'The request names no client (client_id), or names it more than once.' };
  const client = await findClient(db, clientId);
  if (!client) return { kind: 'error-page', message: 'The application asking for access (client_id) is not registered here.' };
  if (confidentialOnly && client.secret_hash === null) {
    return { kind: 'error-page', message: 'The application asking for access (client_id) is a public client; this server accepts confidential clients only.' };
  }
  const redirectUri = single('redirect_uri');
  if (!redirectUri) return { kind: 'error-page', message: 'The request has no return address (redirect_uri), or more than one.' };
  if (redirectUriProblem(redirectUri) !== null || !(await hasRedirectUri(db, client.id, redirectUri))) {
    return { kind: 'error-page', message: 'The return address (redirect_uri) is not one registered for this application.' };
  }

  const state = single('state') ?? null;
  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: 'error-redirect',
    location: redirectLocation(redirectUri, { error, error_description: description, state, iss: issuer }),
  });
  for (const name of AUTHORIZATION_PARAMS) {
    if (single(name) === undefined) return fail('invalid_request', `${name} is given more than once`);
  }
  const responseType = single('response_type');
  if (!responseType) return fail('invalid_request', 'response_type is required');
  // SECURITY.md 6: the authorization code grant only; no implicit grant (response_type=token).
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
  const scopeText = single('scope') ?? '';
  const requested = scopeText.trim() === '' ? [...SCOPES] : parseScope(scopeText);
  if (!requested) return fail('invalid_scope', `Unknown scope; the scopes are: ${SCOPES.join(' ')}`);
  const challenge = single('code_challenge') ?? null;
  const method = single('code_challenge_method') ?? null;
  // SECURITY.md 3: PKCE with S256 only (plain, the RFC 7636 default, is refused).
  if (method !== null && method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (challenge !== null && method === null) return fail('invalid_request', 'code_challenge_method=S256 is required');
  if (challenge === null && method !== null) return fail('invalid_request', 'code_challenge is required');
  if (challenge !== null && !CODE_CHALLENGE_PATTERN.test(challenge)) return fail('invalid_request', 'code_challenge is not an S256 challenge');
  if (challenge === null && client.secret_hash === null) {
    return fail('invalid_request', 'PKCE (code_challenge with S256) is required for public clients');
  }

  const params: [string, string][] = [];
  for (const name of AUTHORIZATION_PARAMS) {
    const value = single(name);
    if (typeof value === 'string') params.push([name, value]);
  }
  return { kind: 'ok', request: { client, redirectUri, scopes: requested, state, codeChallenge: challenge, params } };
}

/** The client's redirect URI with the answer's parameters added (its own query is kept). */
export function redirectLocation(redirectUri: string, answer: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) if (value !== null) url.searchParams.append(name, value);
  return url.href;
}

export interface ConsentChoice {
  /** What the administrator can grant of what was asked (their permissions bound it). */
  grantable: Scope[];
  /** What was asked but the administrator's permissions do not allow. */
  withheld: Scope[];
}

/** Spec §5.2 rule 2.3 and issue #4: the requested scopes intersected with the administrator's permissions. */
export async function consentChoice(
  db: Kysely<Database>,
  request: AuthorizationRequest,
  administratorId: number,
): Promise<ConsentChoice> {
  const granter = await findGranter(db, administratorId);
  const allowed = granter ? grantableScopes(principalOfAdministrator(granter)) : new Set<Scope>();
  return {
    grantable: request.scopes.filter((scope) => allowed.has(scope)),
    withheld: request.scopes.filter((scope) => !allowed.has(scope)),
  };
}

/** The person said no, or there is nothing they could grant. */
export function denialLocation(request: AuthorizationRequest, issuer: string, description: string): string {
  return redirectLocation(request.redirectUri, {
    error: 'access_denied',
    error_description: description,
    state: request.state,
    iss: issuer,
  });
}

/**
 * The person allowed access: a grant (bound to the login session, so signing out revokes it) and a
 * single-use code for it, sent back to the client with `state` and `iss` (RFC 9207).
 */
export async function approveAuthorization(
  db: Kysely<Database>,
  request: AuthorizationRequest,
  session: { id: number; administratorId: number },
  issuer: string,
  now: Date,
): Promise<string> {
  const { grantable } = await consentChoice(db, request, session.administratorId);
  if (grantable.length === 0) {
    return denialLocation(request, issuer, 'The administrator has no permission for any requested scope');
  }
  const code = generateKey();
  const nowIso = now.toISOString();
  await db.transaction().execute(async (trx) => {
    const grantId = await insertGrant(trx, {
      client_id: request.client.id,
      administrator_id: session.administratorId,
      session_id: session.id,
      scope: formatScope(grantable),
      created: nowIso,
      expires_at: new Date(now.getTime() + GRANT_LIFETIME_SECONDS * 1000).toISOString(),
    });
    await insertCode(trx, {
      code_hash: hashKey(code),
      grant_id: grantId,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      created: nowIso,
      expires_at: new Date(now.getTime() + CODE_LIFETIME_SECONDS * 1000).toISOString(),
    });
  });
  await purgeExpiredGrants(db, nowIso, new Date(now.getTime() - 3600 * 1000).toISOString());
  return redirectLocation(request.redirectUri, { code, state: request.state, iss: issuer });
}
