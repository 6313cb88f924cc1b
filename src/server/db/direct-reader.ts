import type { Kysely, SqliteDatabase } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.ts';

/**
 * Runs a read of the hot path (db/prepared-query.ts) outside Kysely's driver; null when it cannot,
 * and the caller then goes through Kysely.
 */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | null | Promise<unknown[]>;

const readers = new WeakMap<Kysely<Database>, DirectReader>();

/** Only the database itself has one: a read within a transaction goes through the transaction. */
export function directReaderOf(db: Kysely<Database>): DirectReader | undefined {
  return readers.get(db);
}

/**
 * SQLite: better-sqlite3 runs a statement synchronously, so a read needs Kysely's connection queue
 * only while a transaction holds the one connection; then the reader answers null, and Kysely
 * waits for the commit (test/read-isolation.test.ts). Otherwise the queue's promises cost a hot
 * read as much as half its SQL (measured).
 */
export function useSqliteDirectReader(
  db: Kysely<Database>,
  file: { readonly inTransaction: boolean },
  statements: Pick<SqliteDatabase, 'prepare'>,
): void {
  readers.set(db, (sql, parameters) => (file.inTransaction ? null : statements.prepare(sql).all(parameters)));
}

/**
 * PostgreSQL: the same text runs as a named statement, which each pooled connection parses and
 * plans once. Planning the single-contact statement (four correlated subqueries) took twice as
 * long as running it (measured: 390 µs a query unnamed, 130 µs named).
 */
export function usePostgresDirectReader(db: Kysely<Database>, pool: pg.Pool): void {
  const names = new Map<string, string>();
  readers.set(db, async (sql, parameters) => {
    let name = names.get(sql);
    if (name === undefined) {
      name = `listkeeper_read_${names.size + 1}`;
      names.set(sql, name);
    }
    return (await pool.query<Record<string, unknown>>({ name, text: sql, values: [...parameters] })).rows;
  });
}
