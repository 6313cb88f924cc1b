import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, EmailsTable } from '../db/schema.ts';
import { insertInBatches } from './batches.ts';
import { noteChangedContacts } from './changed-contacts.ts';

export type EmailRow = Selectable<EmailsTable>;
/** An address with its contact's ccid, which stands for the contact on ccid-enabled accounts. */
export type EmailWithContactRow = EmailRow & { contact_ccid: string | null };

/** Spec §2.2: addresses are unique per account regardless of case; `email_key` is the lower-cased form. */
export function emailKey(address: string): string {
  return address.toLowerCase();
}

function withContact(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('emails')
    .innerJoin('contacts', 'contacts.id', 'emails.contact_id')
    .selectAll('emails')
    .select('contacts.ccid as contact_ccid')
    .where('emails.account_id', '=', accountId);
}

export function findEmailById(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<EmailWithContactRow | undefined> {
  return withContact(db, accountId).where('emails.id', '=', id).executeTakeFirst();
}

export function findEmailByAddress(
  db: Kysely<Database>,
  accountId: number,
  address: string,
): Promise<EmailWithContactRow | undefined> {
  return withContact(db, accountId)
    .where('emails.email_key', '=', emailKey(address))
    .executeTakeFirst();
}

/** The addresses among `addresses` that the account already holds, with their contacts. */
export async function findEmailsByAddresses(
  db: Kysely<Database>,
  accountId: number,
  addresses: readonly string[],
): Promise<EmailWithContactRow[]> {
  if (addresses.length === 0) return [];
  return withContact(db, accountId)
    .where('emails.email_key', 'in', addresses.map(emailKey))
    .execute();
}

export async function insertEmails(
  db: Kysely<Database>,
  values: Insertable<EmailsTable>[],
): Promise<EmailRow[]> {
  const rows = await insertInBatches(values, (batch) => db.insertInto('emails').values(batch).returningAll().execute());
  noteChangedContacts(db, rows.map((row) => row.contact_id));
  return rows;
}

export async function updateEmail(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  patch: Updateable<EmailsTable>,
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  const rows = await db
    .updateTable('emails')
    .set(patch)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}

export async function deleteEmail(
  db: Kysely<Database>,
  accountId: number,
  id: number,
): Promise<void> {
  const rows = await db
    .deleteFrom('emails')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}

export async function countEmailsOfContact(
  db: Kysely<Database>,
  contactId: number,
): Promise<number> {
  const row = await db
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('contact_id', '=', contactId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes some addresses of the account (a contact's, when a PUT sets its `emails`). */
export async function deleteEmailsByIds(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db
    .deleteFrom('emails')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .returning('contact_id')
    .execute();
  noteChangedContacts(db, rows.map((row) => row.contact_id));
}
