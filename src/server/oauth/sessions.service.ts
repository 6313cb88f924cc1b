import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findTokenPrincipal } from '../auth/authenticate-token.ts';
import { generateKey, hashKey, hashPassword, verifyPassword } from '../auth/keys.ts';
import type { Database } from '../db/schema.ts';
import { revokeGrant, revokeSessionGrants } from './grants.repository.ts';
import {
  chargeLoginAttempt,
  clearLoginAttempts,
  deleteExpiredSessions,
  deleteSession,
  findLiveSession,
  findSignInAdministrator,
  insertSession,
  purgeExpiredLoginAttempts,
} from './sessions.repository.ts';

/** The sign-in form is valid this long before it must be reloaded. */
const PRE_SESSION_SECONDS = 60 * 60;
/** A sign-in lets later authorization requests of the same browser skip the password this long. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** SECURITY.md 7: at most this many sign-in attempts per username and address per window. */
export const MAX_LOGIN_ATTEMPTS = 5;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/**
 * A browser's session with the authorization server, found by its cookie. Before anyone signs in it
 * is a pre-session: it only anchors the sign-in form's CSRF token.
 */
export interface BrowserSession {
  id: number;
  /** The cookie's value; the CSRF token is derived from it. */
  cookie: string;
  administratorId: number | null;
  username: string | null;
}

export async function findBrowserSession(
  db: Kysely<Database>,
  cookie: string | undefined,
  now: Date = new Date(),
): Promise<BrowserSession | null> {
  if (!cookie) return null;
  const row = await findLiveSession(db, hashKey(cookie), now.toISOString());
  if (!row) return null;
  return { id: row.id, cookie, administratorId: row.administrator_id, username: row.username };
}

/**
 * The sign-in form needs no account, so anyone can make these: expired ones are cleared as new
 * ones are made, which keeps the table as small as an hour's worth of visits.
 */
export async function startPreSession(db: Kysely<Database>, now: Date = new Date()): Promise<BrowserSession> {
  await deleteExpiredSessions(db, now.toISOString());
  return newSession(db, null, null, PRE_SESSION_SECONDS, now);
}

/**
 * The CSRF token of the session's forms: a hash of the HttpOnly cookie, which another site can
 * neither read nor guess, so a forged form cannot carry it (SECURITY.md 7).
 */
export function csrfTokenOf(session: BrowserSession): string {
  return createHash('sha256').update(`csrf\n${session.cookie}`).digest('base64url');
}

export function csrfMatches(session: BrowserSession, token: string | null): boolean {
  if (!token) return false;
  const expected = Buffer.from(csrfTokenOf(session));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export type SignInResult =
  | { kind: 'signed-in'; session: BrowserSession }
  | { kind: 'failed' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Checks the password of a person (not an API key). Every attempt is counted first, atomically, so
 * parallel guesses cannot exceed the limit; a success clears the count and replaces the pre-session
 * with a new session and a new cookie (no session fixation).
 */
export async function signIn(
  db: Kysely<Database>,
  input: { preSession: BrowserSession; username: string; password: string; remoteAddress: string },
  now: Date = new Date(),
): Promise<SignInResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % LOGIN_WINDOW_SECONDS);
  const throttleKey = hashKey(`${input.username.trim().toLowerCase()}\n${input.remoteAddress}`);
  const attempts = await chargeLoginAttempt(db, throttleKey, windowStart);
  if (attempts > MAX_LOGIN_ATTEMPTS) {
    return { kind: 'throttled', retryAfterSeconds: Math.max(1, windowStart + LOGIN_WINDOW_SECONDS - nowSeconds) };
  }
  const administrator = await findSignInAdministrator(db, input.username.trim());
  // An unknown name costs the same scrypt as a wrong password: timing does not tell which.
  const valid = await verifyPassword(input.password, administrator?.password_hash ?? (await dummyHash()));
  if (!valid || !administrator?.password_hash) return { kind: 'failed' };

  await clearLoginAttempts(db, throttleKey);
  await deleteSession(db, input.preSession.id);
  await purgeExpiredLoginAttempts(db, windowStart);
  const session = await newSession(db, administrator.id, input.username.trim(), SESSION_SECONDS, now);
  return { kind: 'signed-in', session };
}

/** Ends the browser's session and revokes every grant given in it. */
export async function signOut(db: Kysely<Database>, session: BrowserSession, now: Date = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await revokeSessionGrants(trx, session.id, now.toISOString());
    await deleteSession(trx, session.id);
  });
}

/**
 * Sign-out by an application holding an access token (the dashboard): revokes the token's grant
 * and ends the login session it was given in, with that session's other grants. false for a token
 * that is not (or no longer) valid.
 */
export async function signOutWithAccessToken(
  db: Kysely<Database>,
  token: string,
  remoteAddress: string,
  now: Date = new Date(),
): Promise<boolean> {
  const found = await findTokenPrincipal(db, token, remoteAddress, now);
  if (!found) return false;
  const nowIso = now.toISOString();
  const sessionId = found.sessionId;
  await db.transaction().execute(async (trx) => {
    await revokeGrant(trx, found.grantId, nowIso);
    if (sessionId !== null) {
      await revokeSessionGrants(trx, sessionId, nowIso);
      await deleteSession(trx, sessionId);
    }
  });
  return true;
}

async function newSession(
  db: Kysely<Database>,
  administratorId: number | null,
  username: string | null,
  lifetimeSeconds: number,
  now: Date,
): Promise<BrowserSession> {
  const cookie = generateKey();
  const id = await insertSession(db, {
    session_hash: hashKey(cookie),
    administrator_id: administratorId,
    created: now.toISOString(),
    expires_at: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
  });
  return { id, cookie, administratorId, username };
}

let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= hashPassword(generateKey());
  return dummy;
}
