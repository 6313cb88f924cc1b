import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { emailKey } from '../repositories/emails.repository.ts';
import { API_PERSON } from '../repositories/users.mapper.ts';
import { findAdministratorById, updateAdministratorRow } from '../repositories/users.repository.ts';
import { endWhatNoLongerHolds } from '../services/sign-in-revocation.service.ts';
import { issueStoredToken, peekStoredToken, takeStoredToken } from '../tokens/stored-token.ts';

/**
 * A one-time link to set an administrator's password (issue 27 item 4), mailed in the welcome
 * mail (spec §2.6 `welcome_email`), so that nobody hands a password over. SECURITY.md 42: a
 * stored token (tokens/stored-token.ts: 256 random bits, only its SHA-256 kept) of purpose
 * `password`, bound to the administrator and to the address it was mailed to, used once, for
 * PASSWORD_LINK_DAYS. Its GET shows a form; only its POST sets the password (SECURITY.md 41).
 */
export const PASSWORD_LINK_DAYS = 7;

/** Where the page is served (public/password/), under the public origin (PUBLIC_URL). */
export const PASSWORD_PATH = '/password/';

const DAY_MS = 86_400_000;

/** The administrator a link sets the password of: a person, who signs in by username. */
export interface PasswordLinkHolder {
  administratorId: number;
  username: string;
}

/** A new link for a person just created, in the caller's transaction; the token is in it only. */
export async function issuePasswordLink(
  db: Kysely<Database>,
  administrator: { id: number; accountId: number | null; username: string },
  origin: string,
  now: Date,
): Promise<string> {
  const token = await issueStoredToken(
    db,
    {
      purpose: 'password',
      accountId: administrator.accountId,
      listId: null,
      administratorId: administrator.id,
      addressKey: emailKey(administrator.username),
      requestId: null,
    },
    now,
    PASSWORD_LINK_DAYS * DAY_MS,
  );
  return `${origin.replace(/\/+$/, '')}${PASSWORD_PATH}${token}`;
}

/** Whom a live link is for, without using it; undefined for a used, expired or forged one. */
export async function readPasswordLink(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<PasswordLinkHolder | undefined> {
  const row = await peekStoredToken(db, token, 'password', now);
  return row ? holderOf(db, row) : undefined;
}

/**
 * Uses a link once (whoever sends it at the same time, one wins) and sets the password it was
 * for; as a new password does, every sign-in and grant of the administrator ends (SECURITY.md 32).
 * In the caller's transaction: all or nothing. Undefined, and nothing changed, for a link that is
 * used, expired, forged, or whose administrator is gone or no longer has the address it was
 * mailed to.
 */
export async function setPasswordByLink(
  db: Kysely<Database>,
  token: string,
  passwordHash: string,
  now: Date,
): Promise<PasswordLinkHolder | undefined> {
  const row = await takeStoredToken(db, token, 'password', now);
  const holder = row && (await holderOf(db, row));
  if (!holder) return undefined;
  const updated = await updateAdministratorRow(db, holder.administratorId, {
    password_hash: passwordHash,
  });
  await endWhatNoLongerHolds(db, updated, { passwordChanged: true }, now);
  return holder;
}

/**
 * The link's administrator, of the account it was issued in, while it is still the person at the
 * address the link was mailed to.
 */
async function holderOf(
  db: Kysely<Database>,
  row: { account_id: number | null; administrator_id: number | null; address_key: string },
): Promise<PasswordLinkHolder | undefined> {
  if (row.administrator_id === null) return undefined;
  const administrator = await findAdministratorById(db, row.account_id, row.administrator_id);
  const username = administrator?.username;
  if (!administrator || administrator.api !== API_PERSON || !username) return undefined;
  if (emailKey(username) !== row.address_key) return undefined;
  return { administratorId: administrator.id, username };
}
