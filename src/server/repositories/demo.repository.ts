import { sql, SqliteAdapter, type Insertable, type Kysely } from 'kysely';
import type {
  ContactsTable,
  ContactValuesTable,
  Database,
  EmailsTable,
  MembershipsTable,
} from '../db/schema.ts';
import {
  POSTGRES_DEFER_SETTING,
  SQLITE_SEARCH_TRIGGER_PREFIX,
  postgresBackfill,
  sqliteBackfill,
} from '../db/migrations/2026-11-24T0100-contact-search.ts';
import { sqliteGramsBackfill } from '../db/migrations/2026-11-27T0000-contact-search-short-terms.ts';

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

/**
 * Runs `write` (bulk contact inserts) with the search tables of migrations 2026-11-24T0100 and
 * 2026-11-27T0000 (SQLite's index of short terms) filled
 * once at the end instead of by their triggers: per row (SQLite) or per batch of addresses and
 * values (PostgreSQL), each contact's text would be written several times over, and SQLite's
 * full-text index row by row (measured before: 100,000 contacts, 7.0 s against 1.6 s). SQLite's
 * triggers are dropped and re-created from their own stored SQL inside the caller's transaction,
 * so a failure rolls both back and readers never see them missing; PostgreSQL's skip their work
 * while the transaction's `listkeeper.search_deferred` is on. New ids are above the old maximum.
 */
export async function withDeferredSearchIndex<T>(
  db: Kysely<Database>,
  write: () => Promise<T>,
): Promise<T> {
  const before = await sql<{ id: number | null }>`select max(id) as id from contacts`.execute(db);
  const lastId = Number(before.rows[0]?.id ?? 0);
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`select set_config(${POSTGRES_DEFER_SETTING}, 'on', true)`.execute(db);
    const result = await write();
    for (const statement of postgresBackfill(lastId)) await sql.raw(statement).execute(db);
    await sql`select set_config(${POSTGRES_DEFER_SETTING}, 'off', true)`.execute(db);
    return result;
  }
  const triggers = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
    where type = 'trigger' and name like ${`${SQLITE_SEARCH_TRIGGER_PREFIX}%`}`.execute(db);
  for (const { name } of triggers.rows) await sql`drop trigger ${sql.id(name)}`.execute(db);
  const result = await write();
  for (const statement of sqliteBackfill(lastId)) await sql.raw(statement).execute(db);
  await sqliteGramsBackfill(db as Kysely<unknown>, lastId);
  for (const trigger of triggers.rows) await sql.raw(trigger.sql).execute(db);
  return result;
}

/**
 * Runs `write` (the demo's bulk load) with PostgreSQL's GIN indexes of `contact_search` (the
 * trigrams, migration 2026-11-25T0300, and the short substrings, migration 2026-11-27T0000) built
 * once after it, from their own stored definitions, rather than kept entry by entry as
 * `withDeferredSearchIndex` fills the table (issue 28 item 7; 200,000 texts on a loaded machine:
 * the trigram index 7.5 s against 13.8, the short substrings' 41 s against 44, most of it
 * computing the substrings either way). Only when the load at least doubles the contacts
 * (`rebuild`): a small top-up of a large database would pay for a whole build. Dropped in the
 * caller's transaction, so a failure restores them; readers of the table wait for its commit
 * rather than search without them. SQLite: nothing (its indexes are filled at the end already).
 */
export async function withSearchIndexesBuiltAfter<T>(
  db: Kysely<Database>,
  rebuild: boolean,
  write: () => Promise<T>,
): Promise<T> {
  if (!rebuild || db.getExecutor().adapter instanceof SqliteAdapter) return write();
  const { rows: indexes } = await sql<{ name: string; definition: string }>`select
      indexname as name, indexdef as definition from pg_indexes
    where schemaname = current_schema() and tablename = 'contact_search'
      and indexdef like '% USING gin %'`.execute(db);
  for (const { name } of indexes) await sql`drop index ${sql.id(name)}`.execute(db);
  const result = await write();
  // The build sorts its entries in this much memory (the default 64 MB spills to disk at 1M).
  await sql`select set_config('maintenance_work_mem', '512MB', true)`.execute(db);
  for (const { definition } of indexes) await sql.raw(definition).execute(db);
  return result;
}

/** How many contacts the database holds (every account): the demo decides on a rebuild with it. */
export async function countAllContacts(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*) as count from contacts`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/**
 * PostgreSQL plans with the statistics autovacuum gathers some time after a bulk load; until then it
 * misjudges the new rows (measured: a search over 100,000 fresh demo contacts ran four times slower
 * before ANALYZE). SQLite keeps the plans it has without statistics, so it is left alone.
 */
export async function refreshPlannerStatistics(db: Kysely<Database>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`analyze contacts, emails, memberships, contact_values`.execute(db);
  // Vacuumed too: counting the orphans reads their index alone once its pages are marked all-visible.
  await sql`vacuum (analyze) contact_search, contact_orphans`.execute(db);
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
