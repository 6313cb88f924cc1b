import type { Kysely } from 'kysely';
import type { Permission } from '../../api/constants.ts';
import { generateKey, hashKey, hashPassword } from '../auth/keys.ts';
import type { Database } from '../db/schema.ts';
import { conflict } from '../http/http-error.ts';
import { findAccountByName, insertAccount, type AccountRow } from '../repositories/accounts.repository.ts';
import { insertAdministrator, insertApiKey, type AdministratorRow } from '../repositories/administrators.repository.ts';
import { usernameTaken } from '../repositories/users.repository.ts';

/** Default plan: the maximum address-book size when none is given (spec §8 does not fix one). */
export const DEFAULT_MAX_CONTACTS = 10_000;

/** Provisioning used by the CLI and the demo: accounts, keys and users outside the HTTP API. */
export async function createAccount(
  db: Kysely<Database>,
  input: { name: string; description?: string; maxContacts?: number; ccid?: boolean; now: Date },
): Promise<AccountRow> {
  if (await findAccountByName(db, input.name)) throw conflict(`An account named ${input.name} already exists`);
  return insertAccount(db, {
    name: input.name,
    description: input.description ?? '',
    domain: null,
    max_contacts: input.maxContacts ?? DEFAULT_MAX_CONTACTS,
    ccid: input.ccid ? 1 : 0,
    settings: '{}',
    created: input.now.toISOString(),
  });
}

export interface CreatedKey {
  key: string;
  administrator: AdministratorRow;
  expires_at: string | null;
}

/**
 * Adds months the way people count them: the same day of a later month, or its last day when it
 * is shorter (31 January + 1 month is 28 or 29 February, not early March).
 */
export function addMonths(from: Date, months: number): Date {
  const date = new Date(from);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date;
}

/** Issues a new key for an administrator; the plain key is returned once and only its hash kept. */
export async function issueKey(
  db: Kysely<Database>,
  administratorId: number,
  now: Date,
  expiryMonths?: number,
  /** The expiry to apply instead of the one asked for, from the asked-for one (SECURITY.md 32). */
  bound: (requested: string | null) => string | null = (requested) => requested,
): Promise<{ key: string; expires_at: string | null }> {
  const key = generateKey();
  const expires_at = bound(expiryMonths ? addMonths(now, expiryMonths).toISOString() : null);
  await insertApiKey(db, { administrator_id: administratorId, key_hash: hashKey(key), expires_at, created: now.toISOString() });
  return { key, expires_at };
}

/** A version 2 API key is an administrator entry of its own (spec §5.1 rule 2, §9 rule 3). */
export async function createApiKeyAdministrator(
  db: Kysely<Database>,
  input: {
    accountId: number | null;
    permissions: readonly Permission[];
    cidr?: string | null;
    description?: string;
    expiryMonths?: number;
    now: Date;
  },
): Promise<CreatedKey> {
  const administrator = await insertAdministrator(db, {
    account_id: input.accountId,
    username: null,
    description: input.description ?? '',
    cidr: input.cidr ?? null,
    api: 2,
    permissions: JSON.stringify(input.permissions),
    created: input.now.toISOString(),
  });
  const { key, expires_at } = await issueKey(db, administrator.id, input.now, input.expiryMonths);
  return { key, administrator, expires_at };
}

/** A person who signs in (OAuth login page) with a username and password. */
export async function createUser(
  db: Kysely<Database>,
  input: {
    accountId: number | null;
    username: string;
    password: string;
    permissions: readonly Permission[];
    now: Date;
  },
): Promise<AdministratorRow> {
  // Usernames are unique whatever their case, as through the API (users.service.ts).
  if (await usernameTaken(db, input.username)) throw conflict(`An administrator named ${input.username} already exists`);
  return insertAdministrator(db, {
    account_id: input.accountId,
    username: input.username,
    api: 0,
    permissions: JSON.stringify(input.permissions),
    password_hash: await hashPassword(input.password),
    created: input.now.toISOString(),
  });
}
