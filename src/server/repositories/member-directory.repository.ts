import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { noteChangedContacts } from './changed-contacts.ts';

/**
 * What the members' side (issue 25) reads of one address on one list: its address row, its
 * contact, and the contact's membership of the list when it has one.
 */
export interface MemberOfList {
  emailId: number;
  contactId: number;
  email: string;
  paused: boolean;
  confirmed: boolean;
  /** The address's own digest setting (spec §2.2). */
  emailDigest: boolean;
  membershipId: number | null;
  /** The membership's digest: null keeps the address's (spec §2.3). */
  membershipDigest: number | null;
}

export async function findMemberOfList(
  db: Kysely<Database>,
  accountId: number,
  listId: number,
  where: { addressKey: string } | { emailId: number },
): Promise<MemberOfList | undefined> {
  let query = db
    .selectFrom('emails')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.contact_id', '=', 'emails.contact_id')
        .on('memberships.list_id', '=', listId),
    )
    .select([
      'emails.id as email_id',
      'emails.contact_id',
      'emails.email',
      'emails.paused',
      'emails.confirmed',
      'emails.digest as email_digest',
      'memberships.id as membership_id',
      'memberships.digest as membership_digest',
    ])
    .where('emails.account_id', '=', accountId);
  query =
    'addressKey' in where
      ? query.where('emails.email_key', '=', where.addressKey)
      : query.where('emails.id', '=', where.emailId);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  return {
    emailId: row.email_id,
    contactId: row.contact_id,
    email: row.email,
    paused: row.paused === 1,
    confirmed: row.confirmed === 1,
    emailDigest: row.email_digest === 1,
    membershipId: row.membership_id ?? null,
    membershipDigest: row.membership_digest ?? null,
  };
}

/** The address row of a delivery's link (issue 25), whatever list it is on. */
export function findEmailForLink(db: Kysely<Database>, emailId: number) {
  return db
    .selectFrom('emails')
    .select(['id', 'account_id', 'contact_id', 'email', 'email_key'])
    .where('id', '=', emailId)
    .executeTakeFirst();
}

/** Spec §2.2 `confirmed` (read-only through the API): the address answered a confirmation. */
export async function markEmailConfirmed(db: Kysely<Database>, emailId: number): Promise<void> {
  const rows = await db
    .updateTable('emails')
    .set({ confirmed: 1 })
    .where('id', '=', emailId)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}

/** Spec §2.2 `paused`: deliveries to the address stop until it is resumed. */
export async function setEmailPaused(
  db: Kysely<Database>,
  emailId: number,
  paused: boolean,
): Promise<void> {
  const rows = await db
    .updateTable('emails')
    .set({ paused: paused ? 1 : 0 })
    .where('id', '=', emailId)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}

/**
 * The account's administrators who take notices of `kind` (spec §2.6 `notifications`) about the
 * list `listName`: those limited to other lists (limit_lists) are left out. By username, an
 * address.
 */
export async function notificationRecipients(
  db: Kysely<Database>,
  accountId: number,
  kind: string,
  listName: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('administrators')
    .select(['username', 'notifications', 'permissions', 'limit_lists'])
    .where('account_id', '=', accountId)
    .where('username', 'is not', null)
    .execute();
  return rows
    .filter((row) => {
      const kinds = jsonArray(row.notifications);
      if (!kinds.includes(kind)) return false;
      if (!jsonArray(row.permissions).includes('limit_lists')) return true;
      return jsonArray(row.limit_lists).includes(listName);
    })
    .map((row) => row.username ?? '')
    .filter((username) => username.includes('@'));
}

function jsonArray(text: string): unknown[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** A list as a digest's personal links need it: its name, settings, and its account's. */
export function findListForLinks(db: Kysely<Database>, listId: number) {
  return db
    .selectFrom('lists')
    .innerJoin('accounts', 'accounts.id', 'lists.account_id')
    .select([
      'lists.id',
      'lists.account_id',
      'lists.name',
      'lists.settings',
      'accounts.domain',
      'accounts.settings as account_settings',
    ])
    .where('lists.id', '=', listId)
    .executeTakeFirst();
}
