import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase as SqliteDialectDatabase } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
}

/** Opens the embedded SQLite database (default) or PostgreSQL, and migrates it to the latest schema. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl ? openPostgres(options.databaseUrl) : openSqlite(options.dataDir);
  try {
    await migrateToLatest(handle.db as Kysely<unknown>, handle.dialect);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

function openSqlite(dataDir: string): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new SqliteDatabase(path.join(dataDir, 'listkeeper.db'));
  // SECURITY.md 22: WAL, synchronous=FULL and foreign keys, asserted rather than assumed.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // The working set of a 100k-contact address book (contacts, addresses, memberships, values and
  // their indexes) is most of the file; SQLite's default 2 MB page cache made reads of pages it
  // had dropped a pread each (measured: a fifth of a single-contact statement).
  file.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  assertPragma(file, 'journal_mode', 'wal');
  assertPragma(file, 'synchronous', 2);
  assertPragma(file, 'foreign_keys', 1);
  const cached = withStatementCache(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  directReaders.set(db, (sql, parameters) => (file.inTransaction ? null : cached.prepare(sql).all(parameters)));
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** SQLite's page cache, in KiB. */
const PAGE_CACHE_KIB = 64 * 1024;

/**
 * Runs a read statement at once, outside Kysely's driver; null when it cannot (see directReaderOf).
 */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | null;

const directReaders = new WeakMap<Kysely<Database>, DirectReader>();

/**
 * SQLite only, and only for the database itself (a transaction has none): better-sqlite3 runs a
 * statement synchronously, so a read needs Kysely's connection queue only while a transaction holds
 * the connection, and then the reader answers null and the caller goes through Kysely, which waits
 * for the commit. Otherwise the queue's promises cost a hot read as much as half its SQL.
 */
export function directReaderOf(db: Kysely<Database>): DirectReader | undefined {
  return directReaders.get(db);
}

/**
 * Kysely prepares every query anew, and preparing costs more than running a small query (measured:
 * a third of a single-contact GET). The query builder emits the same SQL text for the same shape,
 * so statements are cached by text; the cap bounds the shapes `in (…)` lists of every length make.
 */
const STATEMENT_CACHE_SIZE = 1000;

function withStatementCache(file: SqliteDatabase.Database): SqliteDialectDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => file.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = file.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function assertPragma(file: SqliteDatabase.Database, name: string, expected: string | number): void {
  const actual = file.pragma(name, { simple: true });
  if (actual !== expected) {
    throw new Error(`SQLite ${name} is ${String(actual)}, expected ${String(expected)}`);
  }
}

function openPostgres(url: string): DatabaseHandle {
  // bigint (int8) and count(*) come back as strings by default; every value we store fits a double.
  pg.types.setTypeParser(20, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
