import path from 'node:path';
import type { GatewayConfig } from './config.ts';
import { createSealer } from './sealing.ts';
import { SESSION_DATABASE_FILE, sqliteSessionDatabase } from './session-database.ts';
import { postgresSessionDatabase } from './session-database-postgres.ts';
import { SessionStore } from './session-store.ts';

/** The configured store: PostgreSQL when a database URL is set, else the SQLite file in DATA_DIR. */
export async function openSessionStore(config: GatewayConfig): Promise<SessionStore> {
  const db = config.databaseUrl
    ? await postgresSessionDatabase(config.databaseUrl)
    : sqliteSessionDatabase(path.join(config.dataDir, SESSION_DATABASE_FILE));
  return new SessionStore(db, createSealer(config.sessionSecret), {
    idleMs: config.sessionIdleMs,
    maxMs: config.sessionMaxMs,
  });
}
