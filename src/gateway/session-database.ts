import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/**
 * Where the gateway's sessions live (SECURITY.md 25): a SQLite file in DATA_DIR, or a PostgreSQL
 * database that gateways on several machines share (./session-database-postgres.ts). The session
 * store writes its SQL once, with `?` placeholders, for both.
 */
export interface SessionDatabase {
  /** Runs a statement; answers the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  /** The first row a statement answers. Numbers may come back as strings (PostgreSQL BIGINT). */
  get<Row>(sql: string, params: readonly unknown[]): Promise<Row | undefined>;
  close(): Promise<void>;
}

/** The gateway's database file in DATA_DIR, beside (never inside) the reference server's. */
export const SESSION_DATABASE_FILE = 'gateway.db';

const SQLITE_SCHEMA = `
CREATE TABLE IF NOT EXISTS gateway_sessions (
  id_hash TEXT PRIMARY KEY,
  principal TEXT NOT NULL,
  credential BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  version INTEGER NOT NULL,
  refreshing_until INTEGER
);
CREATE TABLE IF NOT EXISTS gateway_logins (
  state_hash TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  client_hash TEXT NOT NULL DEFAULT '',
  pending BLOB NOT NULL,
  expires_at INTEGER NOT NULL
);
`;

/** After the upgrades: the indexes the bounds and the purge read (session-store.ts). */
const SQLITE_INDEXES = `
CREATE INDEX IF NOT EXISTS gateway_logins_client ON gateway_logins (client_hash, expires_at);
CREATE INDEX IF NOT EXISTS gateway_logins_expiry ON gateway_logins (expires_at);
`;

/** The SQLite file: several gateway processes on one DATA_DIR (one machine) share it. */
export function sqliteSessionDatabase(file: string): SessionDatabase {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // Another gateway process may hold the write lock for a moment.
  db.pragma('busy_timeout = 5000');
  db.exec(SQLITE_SCHEMA);
  // A file made before pending logins were bounded per client (issue 28) gets the column.
  const loginColumns = db.prepare('PRAGMA table_info(gateway_logins)').all() as { name: string }[];
  if (!loginColumns.some((column) => column.name === 'client_hash'))
    db.exec("ALTER TABLE gateway_logins ADD COLUMN client_hash TEXT NOT NULL DEFAULT ''");
  db.exec(SQLITE_INDEXES);
  return {
    run: (sql, params) => Promise.resolve(db.prepare(sql).run(...params).changes),
    get: <Row>(sql: string, params: readonly unknown[]) =>
      Promise.resolve(db.prepare(sql).get(...params) as Row | undefined),
    close: () => Promise.resolve(void db.close()),
  };
}
