import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from '../dialect.ts';
import {
  accountWidePostgresTriggers,
  accountWideSqliteTriggers,
} from './2026-11-21T0500-contact-documents.ts';

/**
 * Stored contact documents (migration 0500) show more than their contact's rows: the names of its
 * lists, its account's custom fields, and the account's ccid setting (which names the contact in
 * `contact`). A change to one of those nulled every document it touched in the writing statement,
 * one row per contact: renaming a list of a million members, or adding a custom field to a
 * million-contact account, wrote a million rows on SQLite's only thread (SECURITY.md 29).
 *
 * Now each account has a version of those shared parts (`document_versions.version`), which such a
 * change raises in one row. Each document records the version it was rendered with
 * (`contact_documents.version`), and a read serves it only when that is still its account's, in
 * the same statement (repositories/contact-documents.repository.ts); otherwise the contact is
 * rendered from its rows, and the background renderer brings the account's documents up to date a
 * batch at a time, finding them by (account_id, version). `rendered` is the version up to which
 * the renderer found none left behind: the accounts with work are those where it is lower.
 *
 * The per-contact triggers of migration 0500 stay: a change to one contact's rows nulls its
 * document. A document's version is read before what it renders (and on PostgreSQL held with a
 * share lock until the commit), so a document is never labelled newer than what it shows.
 */
export function documentVersions(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('document_versions')
        .addColumn('account_id', 'integer', (c) =>
          c.primaryKey().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rendered', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`insert into document_versions (account_id) select id from accounts`.execute(db);
      // The renderer's accounts with work: usually none.
      await sql`create index document_versions_behind on document_versions (account_id)
        where rendered < version`.execute(db);
      await sql`alter table contact_documents add column version integer not null default 0`.execute(
        db,
      );
      // An account's documents older than its version (the renderer's batches).
      await sql`create index contact_documents_version on contact_documents (account_id, version, contact_id)`.execute(
        db,
      );
      if (dialect === 'sqlite') await sqliteUp(db);
      else await postgresUp(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        for (const name of SQLITE_TRIGGERS)
          await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
        await accountWideSqliteTriggers(db);
      } else {
        for (const [table, name] of POSTGRES_TRIGGERS)
          await sql`drop trigger if exists ${sql.id(name)} on ${sql.id(table)}`.execute(db);
        for (const name of POSTGRES_FUNCTIONS)
          await sql`drop function if exists ${sql.id(name)}()`.execute(db);
        await accountWidePostgresTriggers(db);
      }
      // Every document as if the shared parts had just changed.
      await sql`update contact_documents set document = null`.execute(db);
      await sql`drop index contact_documents_version`.execute(db);
      await sql`alter table contact_documents drop column version`.execute(db);
      await db.schema.dropTable('document_versions').execute();
    },
  };
}

const SQLITE_TRIGGERS = [
  'accounts_document_version_insert',
  'lists_document_version_rename',
  'custom_fields_document_version_insert',
  'custom_fields_document_version_update',
  'custom_fields_document_version_delete',
  'accounts_document_version_ccid',
];

/** Migration 0500's triggers that null an account's documents, replaced here. */
const SQLITE_REPLACED = [
  'lists_document_rename',
  'custom_fields_document_insert',
  'custom_fields_document_update',
  'custom_fields_document_delete',
  'accounts_document_ccid',
];

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  for (const name of SQLITE_REPLACED) await sql`drop trigger ${sql.id(name)}`.execute(db);
  const bump = (accountId: string) =>
    sql.raw(`update document_versions set version = version + 1 where account_id = ${accountId};`);
  await sql`create trigger accounts_document_version_insert after insert on accounts begin
    insert into document_versions (account_id) values (new.id); end`.execute(db);
  await sql`create trigger lists_document_version_rename after update of name on lists
    when old.name is not new.name begin ${bump('new.account_id')} end`.execute(db);
  await sql`create trigger custom_fields_document_version_insert after insert on custom_fields begin
    ${bump('new.account_id')} end`.execute(db);
  await sql`create trigger custom_fields_document_version_update after update on custom_fields begin
    ${bump('old.account_id')} ${bump('new.account_id')} end`.execute(db);
  await sql`create trigger custom_fields_document_version_delete after delete on custom_fields begin
    ${bump('old.account_id')} end`.execute(db);
  await sql`create trigger accounts_document_version_ccid after update of ccid on accounts
    when old.ccid is not new.ccid begin ${bump('new.id')} end`.execute(db);
}

const POSTGRES_FUNCTIONS = [
  'document_version_account',
  'document_version_bump',
  'document_version_fields',
];

const POSTGRES_TRIGGERS: [string, string][] = [
  ['accounts', 'accounts_document_version_insert'],
  ['lists', 'lists_document_version_rename'],
  ['custom_fields', 'custom_fields_document_version'],
  ['accounts', 'accounts_document_version_ccid'],
];

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger lists_document_rename on lists`.execute(db);
  await sql`drop trigger custom_fields_document on custom_fields`.execute(db);
  await sql`drop trigger accounts_document_ccid on accounts`.execute(db);
  for (const name of [
    'contact_document_stale_list',
    'contact_document_stale_fields',
    'contact_document_stale_account',
  ])
    await sql`drop function ${sql.id(name)}()`.execute(db);

  await sql`create function document_version_account() returns trigger language plpgsql as $$ begin
      insert into document_versions (account_id) values (new.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger accounts_document_version_insert after insert on accounts
    for each row execute function document_version_account()`.execute(db);
  // The account is `new`'s column named by the trigger: `account_id` of a list, `id` of an account.
  await sql`create function document_version_bump() returns trigger language plpgsql as $$ begin
      update document_versions set version = version + 1
        where account_id = (to_jsonb(new) ->> tg_argv[0])::integer;
      return null;
    end $$`.execute(db);
  await sql`create trigger lists_document_version_rename after update of name on lists
    for each row when (old.name is distinct from new.name)
    execute function document_version_bump('account_id')`.execute(db);
  await sql`create function document_version_fields() returns trigger language plpgsql as $$ begin
      if tg_op in ('INSERT', 'UPDATE') then
        update document_versions set version = version + 1 where account_id = new.account_id;
      end if;
      if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.account_id is distinct from new.account_id) then
        update document_versions set version = version + 1 where account_id = old.account_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger custom_fields_document_version after insert or update or delete on custom_fields
    for each row execute function document_version_fields()`.execute(db);
  await sql`create trigger accounts_document_version_ccid after update of ccid on accounts
    for each row when (old.ccid is distinct from new.ccid)
    execute function document_version_bump('id')`.execute(db);
}
