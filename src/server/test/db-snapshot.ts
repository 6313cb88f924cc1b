import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Snapshots of stored rows, to prove that a refused request changed nothing (SECURITY.md 15, 17).
 * Rate-limit counters are left out: every request, refused or not, may move them.
 */

const IGNORED_TABLES = new Set([
  'rate_counters',
  // A contentless FTS5 table (SQLite) cannot be read row by row; its shadow tables (`_data`, `_idx`), which
  // hold the whole index, are compared instead.
  'contact_search_grams',
  // The same for the archive's search (migration 2026-11-29T0500-archive).
  'message_search',
]);
/**
 * Columns derived from other rows that the server rewrites on its own: the background renderer
 * fills stored contact documents, with the version they show, at any moment (migrations 0500 and
 * 2026-11-26T0000). Their rows still count.
 */
const DERIVED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  contact_documents: ['document', 'version'],
  document_versions: ['rendered'],
};
const tableCache = new WeakMap<object, Promise<string[]>>();

/** Every application table, found by introspection so that tables added by later migrations count too. */
function tablesOf(db: Kysely<Database>): Promise<string[]> {
  let tables = tableCache.get(db);
  if (!tables) {
    tables = db.introspection
      .getTables()
      .then((found) =>
        found
          .map((table) => table.name)
          .filter((name) => !IGNORED_TABLES.has(name) && !name.startsWith('kysely_'))
          .sort(),
      );
    tableCache.set(db, tables);
  }
  return tables;
}

function canonical(rows: unknown[]): string[] {
  return rows.map((row) => JSON.stringify(row)).sort();
}

/** Every row of every table, in a canonical order. */
export async function databaseSnapshot(db: Kysely<Database>): Promise<string> {
  const tables = await tablesOf(db);
  const dumps = await Promise.all(
    tables.map(async (table) => {
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
      const derived = DERIVED_COLUMNS[table] ?? [];
      const kept = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !derived.includes(column))));
      return [table, canonical(kept)] as const;
    }),
  );
  return JSON.stringify(dumps);
}

/** The rows that belong to one account: the account itself and everything scoped to it. */
export async function accountSnapshot(db: Kysely<Database>, accountId: number): Promise<string> {
  const administrators = db.selectFrom('administrators').select('id').where('account_id', '=', accountId);
  const contacts = db.selectFrom('contacts').select('id').where('account_id', '=', accountId);
  const parts = await Promise.all([
    db.selectFrom('accounts').selectAll().where('id', '=', accountId).execute(),
    db.selectFrom('administrators').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('api_keys').selectAll().where('administrator_id', 'in', administrators).execute(),
    db.selectFrom('custom_fields').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('contacts').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('contact_values').selectAll().where('contact_id', 'in', contacts).execute(),
    db.selectFrom('emails').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('lists').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('memberships').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('messages').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('outbox').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('held_messages').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('notices').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('member_requests').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('mail_tokens').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('email_bounces').selectAll().where('account_id', '=', accountId).execute(),
  ]);
  return JSON.stringify(parts.map(canonical));
}
