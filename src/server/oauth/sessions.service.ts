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
  refundLoginAttempt,
} from './sessions.repository.ts';

/** A sign-in lets later authorization requests of the same browser skip the password this long. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** SECURITY.md 7: at most this many sign-in attempts per username and address per window. */
export const MAX_LOGIN_ATTEMPTS = 5;
/**
 * Issue 16 finding 12: failed attempts from one address, whatever the usernames (spraying), and for
 * one username, whatever the addresses (a guess spread over many), per window.
 */
export const MAX_LOGIN_FAILURES_PER_ADDRESS = 20;
export const MAX_LOGIN_FAILURES_PER_USERNAME = 20;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/** A cookie value this server could have made (generateKey: 32 random bytes, base64url). */
const COOKIE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A browser's session with the authorization server, found by its cookie. Before anyone signs in it
 * is a pre-session: a random cookie that only anchors the sign-in form's CSRF token, stored nowhere
 * (issue 16 finding 12: showing the sign-in form writes nothing), so its `id` is null.
 */
export interface BrowserSession {
  id: number | null;
  /** The cookie's value; the CSRF token is derived from it. */
  cookie: string;
  administratorId: number | null;
  username: string | null;
}

export async function findBrowserSession(
  db: Kysely<Database>,
  cookie: string | undefined,
  now: Date,
): Promise<BrowserSession | null> {
  if (!cookie) return null;
  const row = await findLiveSession(db, hashKey(cookie), now.toISOString());
  if (row) return { id: row.id, cookie, administratorId: row.administrator_id, username: row.username };
  // Not a stored sign-in: a pre-session. Its CSRF token is derived from the cookie, which another
  // site can neither read nor set, so a stateless pre-session guards the form as a stored one did.
  return COOKIE_PATTERN.test(cookie) ? preSession(cookie) : null;
}

/** The sign-in form needs no account, so anyone can ask for one: nothing is stored for it. */
export function startPreSession(): BrowserSession {
  return preSession(generateKey());
}

function preSession(cookie: string): BrowserSession {
  return { id: null, cookie, administratorId: null, username: null };
}

/** The session's id and administrator once someone has signed in, else null. */
export function signedInOf(session: BrowserSession | null): { id: number; administratorId: number } | null {
  if (session?.id == null || session.administratorId === null) return null;
  return { id: session.id, administratorId: session.administratorId };
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
 * Checks the password of a person (not an API key). Every attempt is counted first, atomically and
 * in the database (so parallel guesses, and guesses spread over server processes, cannot exceed the
 * limits), against three counters: username and address, address alone, username alone. Once one
 * is over its limit no password is checked: a throttled attempt costs no scrypt. A success clears
 * its username-and-address count, takes itself back from the other two, and replaces the
 * pre-session with a new session and a new cookie (no session fixation).
 */
export async function signIn(
  db: Kysely<Database>,
  input: { preSession: BrowserSession; username: string; password: string; remoteAddress: string },
  now: Date,
): Promise<SignInResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % LOGIN_WINDOW_SECONDS);
  const name = input.username.trim().toLowerCase();
  const pairKey = hashKey(`pair\n${name}\n${input.remoteAddress}`);
  const addressKey = hashKey(`address\n${input.remoteAddress}`);
  const usernameKey = hashKey(`username\n${name}`);
  const throttled = { kind: 'throttled', retryAfterSeconds: Math.max(1, windowStart + LOGIN_WINDOW_SECONDS - nowSeconds) } as const;
  // One at a time: an attempt stopped by a counter is not charged to the next ones.
  if ((await chargeLoginAttempt(db, pairKey, windowStart)) > MAX_LOGIN_ATTEMPTS) return throttled;
  if ((await chargeLoginAttempt(db, addressKey, windowStart)) > MAX_LOGIN_FAILURES_PER_ADDRESS) return throttled;
  if ((await chargeLoginAttempt(db, usernameKey, windowStart)) > MAX_LOGIN_FAILURES_PER_USERNAME) return throttled;

  const administrator = await findSignInAdministrator(db, input.username.trim());
  // An unknown name costs the same scrypt as a wrong password: timing does not tell which.
  const valid = await verifyPassword(input.password, administrator?.password_hash ?? (await dummyHash()));
  if (!valid || !administrator?.password_hash) return { kind: 'failed' };

  await clearLoginAttempts(db, pairKey);
  await refundLoginAttempt(db, addressKey, windowStart);
  await refundLoginAttempt(db, usernameKey, windowStart);
  if (input.preSession.id !== null) await deleteSession(db, input.preSession.id);
  await purgeExpiredLoginAttempts(db, windowStart);
  await deleteExpiredSessions(db, now.toISOString());
  const session = await newSession(db, administrator.id, input.username.trim(), SESSION_SECONDS, now);
  return { kind: 'signed-in', session };
}

/** Ends the browser's session and revokes every grant given in it. */
export async function signOut(db: Kysely<Database>, session: BrowserSession, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (session.id === null) return;
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
  now: Date,
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
