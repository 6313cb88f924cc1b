import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';

/**
 * `contact_documents`: one row per contact (a trigger adds it with the contact) holding the
 * contact's spec §2.1 JSON as a caller who sees everything gets it, or null when it has to be
 * rendered from its rows (services/contact-documents.service.ts). A single-contact GET then reads
 * one column by primary key and sends it as it is; rendering from four correlated subqueries,
 * parsing and serializing took most of that request (bench/report.md). The text lives beside
 * `contacts`, not in it: in the row it doubled the table that a search too short for the trigram
 * index scans (measured: 17 → 38 ms over 100k contacts).
 *
 * The one rule: a document is null or equal to what its rows render. Writers store a new one
 * after their changes, and these triggers null it in the same transaction whenever anything it
 * shows changes, however the change was made (a service forgetting to refresh, the CLI, a cascade):
 * the contact's own columns, its addresses, memberships and values, the name of a list it is on,
 * its account's custom fields or the account's ccid setting (which names contacts in `contact`).
 *
 * On PostgreSQL the triggers update the document row even when it is already null: that row lock
 * is what orders a concurrent renderer (which locks the row first) against a change it cannot see
 * yet. SQLite has one writer at a time, so there the update skips null documents.
 */
export function contactDocuments(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('contact_documents')
        .addColumn('contact_id', 'integer', (c) => c.primaryKey().references('contacts.id').onDelete('cascade'))
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('document', 'text')
        .execute();
      // What the renderer looks for: the (usually few) contacts without a document.
      await sql`create index contact_documents_missing on contact_documents (contact_id) where document is null`.execute(db);
      await sql`insert into contact_documents (contact_id, account_id) select id, account_id from contacts`.execute(db);
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        for (const name of SQLITE_TRIGGERS) await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      } else {
        for (const [table, name] of POSTGRES_TRIGGERS) {
          await sql`drop trigger if exists ${sql.id(name)} on ${sql.id(table)}`.execute(db);
        }
        for (const name of POSTGRES_FUNCTIONS) await sql`drop function if exists ${sql.id(name)}()`.execute(db);
      }
      await db.schema.dropTable('contact_documents').ifExists().execute();
    },
  };
}

/** The tables whose rows are part of a contact's document, each with a `contact_id`. */
const CHILD_TABLES = ['emails', 'memberships', 'contact_values'] as const;

/** The contact's own columns a document shows (or, for account_id, whose fields it shows). */
const RENDERED_COLUMNS = ['account_id', 'ccid', 'firstname', 'surname', 'notes', 'created'] as const;

const SQLITE_TRIGGERS = [
  'contacts_document_insert',
  ...CHILD_TABLES.flatMap((table) => ['insert', 'update', 'delete'].map((event) => `${table}_document_${event}`)),
  'contacts_document_update',
  'lists_document_rename',
  'custom_fields_document_insert',
  'custom_fields_document_update',
  'custom_fields_document_delete',
  'accounts_document_ccid',
];

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger contacts_document_insert after insert on contacts begin
    insert into contact_documents (contact_id, account_id) values (new.id, new.account_id); end`.execute(db);
  const staleContact = (row: 'new' | 'old') =>
    sql.raw(`update contact_documents set document = null where contact_id = ${row}.contact_id and document is not null;`);
  for (const table of CHILD_TABLES) {
    await sql`create trigger ${sql.id(`${table}_document_insert`)} after insert on ${sql.id(table)} begin
      ${staleContact('new')} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_document_update`)} after update on ${sql.id(table)} begin
      ${staleContact('old')} ${staleContact('new')} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_document_delete`)} after delete on ${sql.id(table)} begin
      ${staleContact('old')} end`.execute(db);
  }
  await sql`create trigger contacts_document_update after update of ${sql.raw(RENDERED_COLUMNS.join(', '))} on contacts
    begin update contact_documents set document = null where contact_id = new.id and document is not null; end`.execute(db);
  await accountWideSqliteTriggers(db);
}

/**
 * The triggers that null every document a list rename, a custom field or the ccid setting changes:
 * one row per contact in one statement (SECURITY.md 29). Migration 2026-11-26T0000 replaces them
 * with a version per account; its `down` puts them back.
 */
export async function accountWideSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger lists_document_rename after update of name on lists begin
    update contact_documents set document = null
      where contact_id in (select contact_id from memberships where list_id = new.id) and document is not null; end`.execute(db);
  const staleAccount = (row: 'new' | 'old') =>
    sql.raw(`update contact_documents set document = null where account_id = ${row}.account_id and document is not null;`);
  await sql`create trigger custom_fields_document_insert after insert on custom_fields begin
    ${staleAccount('new')} end`.execute(db);
  await sql`create trigger custom_fields_document_update after update on custom_fields begin
    ${staleAccount('old')} ${staleAccount('new')} end`.execute(db);
  await sql`create trigger custom_fields_document_delete after delete on custom_fields begin
    ${staleAccount('old')} end`.execute(db);
  await sql`create trigger accounts_document_ccid after update of ccid on accounts begin
    update contact_documents set document = null where account_id = new.id and document is not null; end`.execute(db);
}

const POSTGRES_FUNCTIONS = [
  'contact_document_insert',
  'contact_document_stale_children',
  'contact_document_stale_self',
  'contact_document_stale_list',
  'contact_document_stale_fields',
  'contact_document_stale_account',
];

const POSTGRES_TRIGGERS: [string, string][] = [
  ['contacts', 'contacts_document_insert'],
  ...CHILD_TABLES.flatMap((table): [string, string][] =>
    ['insert', 'update', 'delete'].map((event) => [table, `${table}_document_${event}`]),
  ),
  ['contacts', 'contacts_document_update'],
  ['lists', 'lists_document_rename'],
  ['custom_fields', 'custom_fields_document'],
  ['accounts', 'accounts_document_ccid'],
];

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create function contact_document_insert() returns trigger language plpgsql as $$ begin
      insert into contact_documents (contact_id, account_id) select id, account_id from new_rows;
      return null;
    end $$`.execute(db);
  await sql`create trigger contacts_document_insert after insert on contacts
    referencing new table as new_rows for each statement execute function contact_document_insert()`.execute(db);
  // Statement-level with transition tables: a bulk insert of addresses is one update.
  await sql`create function contact_document_stale_children() returns trigger language plpgsql as $$ begin
      if tg_op in ('INSERT', 'UPDATE') then
        update contact_documents set document = null where contact_id in (select contact_id from new_rows);
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        update contact_documents set document = null where contact_id in (select contact_id from old_rows);
      end if;
      return null;
    end $$`.execute(db);
  for (const table of CHILD_TABLES) {
    const name = (event: string) => sql.id(`${table}_document_${event}`);
    await sql`create trigger ${name('insert')} after insert on ${sql.id(table)}
      referencing new table as new_rows for each statement execute function contact_document_stale_children()`.execute(db);
    await sql`create trigger ${name('update')} after update on ${sql.id(table)}
      referencing old table as old_rows new table as new_rows
      for each statement execute function contact_document_stale_children()`.execute(db);
    await sql`create trigger ${name('delete')} after delete on ${sql.id(table)}
      referencing old table as old_rows for each statement execute function contact_document_stale_children()`.execute(db);
  }
  const changed = sql.raw(
    `(${RENDERED_COLUMNS.map((c) => `new.${c}`).join(', ')}) is distinct from (${RENDERED_COLUMNS.map((c) => `old.${c}`).join(', ')})`,
  );
  await sql`create function contact_document_stale_self() returns trigger language plpgsql as $$ begin
      update contact_documents set document = null where contact_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger contacts_document_update after update on contacts
    for each row when (${changed}) execute function contact_document_stale_self()`.execute(db);
  await accountWidePostgresTriggers(db);
}

/** PostgreSQL's accountWideSqliteTriggers. */
export async function accountWidePostgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create function contact_document_stale_list() returns trigger language plpgsql as $$ begin
      update contact_documents set document = null
        where contact_id in (select contact_id from memberships where list_id = new.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger lists_document_rename after update of name on lists
    for each row when (old.name is distinct from new.name) execute function contact_document_stale_list()`.execute(db);
  await sql`create function contact_document_stale_fields() returns trigger language plpgsql as $$ begin
      if tg_op in ('INSERT', 'UPDATE') then
        update contact_documents set document = null where account_id = new.account_id;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        update contact_documents set document = null where account_id = old.account_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger custom_fields_document after insert or update or delete on custom_fields
    for each row execute function contact_document_stale_fields()`.execute(db);
  await sql`create function contact_document_stale_account() returns trigger language plpgsql as $$ begin
      update contact_documents set document = null where account_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger accounts_document_ccid after update of ccid on accounts
    for each row when (old.ccid is distinct from new.ccid) execute function contact_document_stale_account()`.execute(db);
}
