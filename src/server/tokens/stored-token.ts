import type { Kysely } from 'kysely';
import { generateKey, hashKey } from '../auth/keys.ts';
import type { Database } from '../db/schema.ts';
import {
  findLiveToken,
  insertMailToken,
  useToken,
  type MailTokenRow,
} from '../repositories/mail-tokens.repository.ts';

/**
 * The tokens mailed to an address that act once (confirm a join or a leave; open a protected
 * archive): 256 random bits, only the SHA-256 stored, bound to one list, one address and one
 * purpose, expiring (SECURITY.md 42). The token itself exists only in the mail.
 */
export type StoredPurpose = 'confirm' | 'archive' | 'password';

/** What a token is bound to: a list's address (confirm, archive) or an administrator (password). */
export interface TokenBinding {
  purpose: StoredPurpose;
  accountId: number | null;
  listId: number | null;
  administratorId?: number | null;
  addressKey: string;
  requestId: number | null;
}

/** A new token for `binding`, valid for `ttlMs` from `now`; the plain value is returned once. */
export async function issueStoredToken(
  db: Kysely<Database>,
  binding: TokenBinding,
  now: Date,
  ttlMs: number,
): Promise<string> {
  const token = generateKey();
  await insertMailToken(db, {
    token_hash: hashKey(token),
    purpose: binding.purpose,
    account_id: binding.accountId,
    list_id: binding.listId,
    administrator_id: binding.administratorId ?? null,
    address_key: binding.addressKey,
    request_id: binding.requestId,
    created: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMs).toISOString(),
  });
  return token;
}

/** Only a token's shape is checked before the database is asked: anything else is no token. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What a live token is bound to, without using it (a link's GET shows a button, SECURITY.md 41). */
export function peekStoredToken(
  db: Kysely<Database>,
  token: string,
  purpose: StoredPurpose,
  now: Date,
): Promise<MailTokenRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return Promise.resolve(undefined);
  return findLiveToken(db, hashKey(token), purpose, now.toISOString());
}

/** Uses a live token: once, whoever asks at the same time. */
export function takeStoredToken(
  db: Kysely<Database>,
  token: string,
  purpose: StoredPurpose,
  now: Date,
): Promise<MailTokenRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return Promise.resolve(undefined);
  return useToken(db, hashKey(token), purpose, now.toISOString());
}
