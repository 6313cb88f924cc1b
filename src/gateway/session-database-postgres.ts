import pg from 'pg';
import type { SessionDatabase } from './session-database.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS gateway_sessions (
  id_hash TEXT PRIMARY KEY,
  principal TEXT NOT NULL,
  credential BYTEA NOT NULL,
  created_at BIGINT NOT NULL,
  seen_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  version INTEGER NOT NULL,
  refreshing_until BIGINT
);
CREATE TABLE IF NOT EXISTS gateway_logins (
  state_hash TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  pending BYTEA NOT NULL,
  expires_at BIGINT NOT NULL
);
-- Issue 28: pending logins are bounded per client; a table made before gets the column.
ALTER TABLE gateway_logins ADD COLUMN IF NOT EXISTS client_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS gateway_logins_client ON gateway_logins (client_hash, expires_at);
CREATE INDEX IF NOT EXISTS gateway_logins_expiry ON gateway_logins (expires_at);
`;

/** Any number, so that gateways starting at once create the tables one after another. */
const SCHEMA_LOCK = 0x6c6b_6777;

/**
 * The sessions in PostgreSQL (GATEWAY_DATABASE_URL, else DATABASE_URL): gateways on several
 * machines behind one load balancer share them. Tables `gateway_*`, beside the reference server's
 * when both use one database.
 */
export async function postgresSessionDatabase(url: string): Promise<SessionDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server ended (a restart, a failover) is dropped; the next query opens
  // another. Without a listener the pool's 'error' event would end the process.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await client.query(SCHEMA);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    await pool.end();
    throw error;
  }
  client.release();
  return {
    run: async (sql, params) => (await pool.query(numbered(sql), [...params])).rowCount ?? 0,
    get: async <Row>(sql: string, params: readonly unknown[]) =>
      (await pool.query(numbered(sql), [...params])).rows[0] as Row | undefined,
    close: () => pool.end(),
  };
}

/** `?` placeholders as PostgreSQL's `$1, $2…` (the store's SQL has no `?` anywhere else). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${(index += 1)}`);
}
