import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase as SqliteDialectDatabase } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.ts';
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect.ts';
import { registerSqliteFunctions } from './sqlite-functions.ts';
import { usePostgresDirectReader, useSqliteDirectReader } from './direct-reader.ts';
import { startReadPool, useReadPool } from './heavy-reader.ts';
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
  const { handle, file } = options.databaseUrl
    ? { handle: openPostgres(options.databaseUrl), file: null }
    : openSqlite(options.dataDir);
  try {
    const migrate = () => migrateToLatest(handle.db as Kysely<unknown>, handle.dialect);
    // PostgreSQL: Kysely's migrator holds an advisory lock. SQLite: it holds none (its adapter
    // assumes one process), so two processes starting on a fresh DATA_DIR both ran the initial
    // migration and one failed (issue 16 finding 15): this process takes the write lock first.
    await (file ? withSqliteWriteLock(file, migrate) : migrate());
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

function openSqlite(dataDir: string): { handle: DatabaseHandle; file: SqliteDatabase.Database } {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new Error(`DATA_DIR ${dataDir} cannot be created`, { cause: error });
  }
  const filename = path.join(dataDir, 'listkeeper.db');
  let file: SqliteDatabase.Database;
  try {
    file = new SqliteDatabase(filename);
  } catch (error) {
    throw new Error(`The database in DATA_DIR ${dataDir} cannot be opened`, { cause: error });
  }
  // First: switching a fresh file to WAL takes a lock another starting process may hold.
  file.pragma('busy_timeout = 5000');
  // SECURITY.md 22: WAL, synchronous=FULL and foreign keys, asserted rather than assumed.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  // The working set of a 100k-contact address book (contacts, addresses, memberships, values and
  // their indexes) is most of the file; SQLite's default 2 MB page cache made reads of pages it
  // had dropped a pread each (measured: a fifth of a single-contact statement).
  file.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  assertPragma(file, 'journal_mode', 'wal');
  assertPragma(file, 'synchronous', 2);
  assertPragma(file, 'foreign_keys', 1);
  registerSqliteFunctions(file);
  const cached = withStatementCache(file);
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: cached }) });
  useSqliteDirectReader(db, file, cached);
  // Long reads run on threads of their own (db/heavy-reader.ts), started when the first one comes.
  const pool = startReadPool(filename);
  useReadPool(db, pool);
  const close = async () => {
    await pool.close();
    await db.destroy();
  };
  return { handle: { db, dialect: 'sqlite', close }, file };
}

/** How long a starting process waits for another one's migrations (a big database's may be slow). */
const MIGRATION_LOCK_WAIT_MS = 10 * 60 * 1000;

/**
 * Runs `work` (the migrations, on this same connection) inside one `BEGIN IMMEDIATE` transaction:
 * the write lock is held from before the migrator reads what has run until every migration has
 * committed, so a second process waits and then finds nothing left to do; a failure leaves nothing
 * half-migrated.
 */
export async function withSqliteWriteLock(
  file: SqliteDatabase.Database,
  work: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
  for (;;) {
    try {
      file.exec('BEGIN IMMEDIATE');
      break;
    } catch (error) {
      const busy = (error as { code?: unknown }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() > deadline)
        throw new Error('The database is locked by another process', { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    await work();
    file.exec('COMMIT');
  } catch (error) {
    if (file.inTransaction) file.exec('ROLLBACK');
    throw error;
  }
}

/** SQLite's page cache, in KiB. */
const PAGE_CACHE_KIB = 64 * 1024;

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

export function assertPragma(
  file: SqliteDatabase.Database,
  name: string,
  expected: string | number,
): void {
  const actual = file.pragma(name, { simple: true });
  if (actual !== expected) {
    throw new Error(`SQLite ${name} is ${String(actual)}, expected ${String(expected)}`);
  }
}

/**
 * Every statement of the API is a short indexed one. JIT compilation, which PostgreSQL starts from
 * cost estimates, took 15 ms of a 1.5 ms page of contacts (measured); and an address book that
 * fits in memory reads index pages about as cheaply as sequential ones, so the default
 * random_page_cost (4, for spinning disks) made the planner scan 100k rows rather than use the
 * trigram index (22 ms against 7 ms). Per session, so the cluster's own settings stay as they are.
 */
const SESSION_SETTINGS = '-c jit=off -c random_page_cost=1.1';

function openPostgres(url: string): DatabaseHandle {
  // bigint (int8) and count(*) come back as strings by default; every value we store fits a double.
  pg.types.setTypeParser(20, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: 10, options: SESSION_SETTINGS });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  usePostgresDirectReader(db, pool);
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
