import { sql, type Insertable, type Kysely } from 'kysely';
import type {
  ContactsTable,
  ContactValuesTable,
  Database,
  EmailsTable,
  MembershipsTable,
} from '../db/schema.ts';

/**
 * Bulk writes for `listkeeper demo`: the same rows the API writes, many at a time (one statement
 * per batch), so that 100,000 contacts take seconds. The caller holds the transaction.
 */

/** Rows per INSERT: well under both dialects' bound-parameter limits for these tables. */
export const BATCH_SIZE = 500;

/**
 * Inserts contacts and answers their ids in the order of `rows`. Ids grow with insertion order
 * within one statement on both dialects (SQLite AUTOINCREMENT, a PostgreSQL sequence), whatever
 * order RETURNING gives them back in, so the sorted ids line up with the rows.
 */
export async function insertContactsReturningIds(
  db: Kysely<Database>,
  rows: Insertable<ContactsTable>[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const returned = await db.insertInto('contacts').values(rows).returning('id').execute();
  return returned.map((row) => row.id).sort((a, b) => a - b);
}

export async function insertEmailRows(
  db: Kysely<Database>,
  rows: Insertable<EmailsTable>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    await db
      .insertInto('emails')
      .values(rows.slice(start, start + BATCH_SIZE))
      .execute();
  }
}

export async function insertMembershipRows(
  db: Kysely<Database>,
  rows: Insertable<MembershipsTable>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    await db
      .insertInto('memberships')
      .values(rows.slice(start, start + BATCH_SIZE))
      .execute();
  }
}

export async function insertContactValueRows(
  db: Kysely<Database>,
  rows: Insertable<ContactValuesTable>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    await db
      .insertInto('contact_values')
      .values(rows.slice(start, start + BATCH_SIZE))
      .execute();
  }
}

export async function countContacts(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countMessagesOf(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The lower-cased addresses among `keys` that the account already holds. */
export async function existingEmailKeys(
  db: Kysely<Database>,
  accountId: number,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('emails')
    .select('email_key')
    .where('account_id', '=', accountId)
    .where('email_key', 'in', keys)
    .execute();
  return new Set(rows.map((row) => row.email_key));
}

/** A few member addresses of a list, with their names, to write the demo's messages from. */
export function sampleMembers(
  db: Kysely<Database>,
  listId: number,
  limit: number,
): Promise<{ email: string; firstname: string; surname: string }[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('emails', 'emails.contact_id', 'memberships.contact_id')
    .innerJoin('contacts', 'contacts.id', 'memberships.contact_id')
    .select(['emails.email', 'contacts.firstname', 'contacts.surname'])
    .where('memberships.list_id', '=', listId)
    .orderBy('emails.id')
    .limit(limit)
    .execute();
}

/** An administrator of the scope (account, or global when null) found by username or by key description. */
export function findDemoAdministrator(
  db: Kysely<Database>,
  accountId: number | null,
  by: { username: string } | { description: string },
): Promise<{ id: number } | undefined> {
  let query = db.selectFrom('administrators').select('id');
  query =
    accountId === null
      ? query.where('account_id', 'is', null)
      : query.where('account_id', '=', accountId);
  query =
    'username' in by
      ? query.where('username', '=', by.username)
      : query.where('api', '=', 2).where('description', '=', by.description);
  return query.orderBy('id').executeTakeFirst();
}

export async function setPasswordHash(
  db: Kysely<Database>,
  administratorId: number,
  passwordHash: string,
): Promise<void> {
  await db
    .updateTable('administrators')
    .set({ password_hash: passwordHash })
    .where('id', '=', administratorId)
    .execute();
}

export async function raiseMaxContacts(
  db: Kysely<Database>,
  accountId: number,
  maxContacts: number,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ max_contacts: maxContacts })
    .where('id', '=', accountId)
    .where('max_contacts', '<', maxContacts)
    .execute();
}

/** PostgreSQL: recomputes the planner's statistics of every table (ANALYZE). */
export async function refreshPlannerStatistics(db: Kysely<Database>): Promise<void> {
  await sql`analyze`.execute(db);
}
