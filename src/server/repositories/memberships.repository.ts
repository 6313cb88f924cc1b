import type { Kysely, Selectable } from 'kysely';
import type { Database, MembershipsTable } from '../db/schema.ts';
import { insertInBatches } from './batches.ts';
import { noteChangedContacts } from './changed-contacts.ts';

export type MembershipRow = Selectable<MembershipsTable>;
/** A membership with its list's name (spec §2.3 `list`). */
export type MembershipWithListRow = MembershipRow & { list_name: string };
/** …and its contact's ccid, which stands for the contact on ccid-enabled accounts. */
export type MembershipDetailRow = MembershipWithListRow & { contact_ccid: string | null };

export interface ListRef {
  id: number;
  name: string;
}

/**
 * The lists of the account named `names`. Read here rather than through the lists repository: a
 * membership names its list (spec §4.3), and this is the one lookup it needs.
 */
export async function findListsByNames(
  db: Kysely<Database>,
  accountId: number,
  names: readonly string[],
): Promise<ListRef[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('lists')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('name', 'in', names)
    .execute();
}

export function findMembershipById(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<MembershipDetailRow | undefined> {
  return db
    .selectFrom('memberships')
    .innerJoin('lists', 'lists.id', 'memberships.list_id')
    .innerJoin('contacts', 'contacts.id', 'memberships.contact_id')
    .selectAll('memberships')
    .select(['lists.name as list_name', 'contacts.ccid as contact_ccid'])
    .where('memberships.account_id', '=', accountId)
    .where('memberships.id', '=', id)
    .executeTakeFirst();
}

export async function membershipExists(
  db: Kysely<Database>,
  contactId: number,
  listId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('id')
    .where('contact_id', '=', contactId)
    .where('list_id', '=', listId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertMemberships(
  db: Kysely<Database>,
  values: { account_id: number; contact_id: number; list_id: number; digest: number | null }[],
): Promise<MembershipRow[]> {
  const rows = await insertInBatches(values, (batch) =>
    db.insertInto('memberships').values(batch).returningAll().execute(),
  );
  noteChangedContacts(db, rows.map((row) => row.contact_id));
  return rows;
}

export async function updateMembershipDigest(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  digest: number | null,
): Promise<void> {
  const rows = await db
    .updateTable('memberships')
    .set({ digest })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}

export async function deleteMembership(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<void> {
  const rows = await db
    .deleteFrom('memberships')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}

/** The names of the lists a contact belongs to. */
export async function listNamesOfContact(
  db: Kysely<Database>,
  contactId: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('lists', 'lists.id', 'memberships.list_id')
    .select('lists.name')
    .where('memberships.contact_id', '=', contactId)
    .execute();
  return rows.map((row) => row.name);
}

/** Deletes some memberships of the account (a contact's, when a PUT sets its `lists`). */
export async function deleteMembershipsByIds(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db
    .deleteFrom('memberships')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}
