import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, inject } from 'vitest';
import { sqliteSessionDatabase, type SessionDatabase } from '../session-database.ts';
import { postgresSessionDatabase } from '../session-database-postgres.ts';

/** One place for a test's sessions, opened as often as the test has gateway processes. */
export interface SessionPlace {
  /** A new connection to the same place: another gateway process. */
  open(): Promise<SessionDatabase>;
  /** Everything the place holds at rest, as text: what an attacker with the disk or a dump reads. */
  dump(): Promise<string>;
}

type Backend = 'sqlite' | 'postgres';

/**
 * Runs a suite on each session database: SQLite always, PostgreSQL when the test run started its
 * throwaway cluster (src/server/test/global-setup.ts); each test gets a fresh, empty place.
 */
export function describeEachSessionDatabase(
  name: string,
  suite: (place: () => SessionPlace) => void,
): void {
  const backends: Backend[] = inject('pgUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const backend of backends) describe(`${name} [${backend}]`, () => suite(placeFor(backend)));
  const unavailable = inject('pgUnavailable');
  // Collected but skipped: a run without PostgreSQL counts these tests as skipped, not absent.
  if (unavailable)
    describe.skip(`${name} [postgres: ${unavailable}]`, () => suite(placeFor('postgres')));
}

function placeFor(backend: Backend): () => SessionPlace {
  let current: SessionPlace | null = null;
  const opened: SessionDatabase[] = [];
  let cleanup: () => Promise<void> = async () => {};
  beforeEach(async () => {
    if (backend === 'sqlite') {
      const dir = mkdtempSync(path.join(tmpdir(), 'gateway-sessions-'));
      const file = path.join(dir, 'gateway.db');
      current = {
        open: () => Promise.resolve(track(sqliteSessionDatabase(file))),
        dump: () =>
          Promise.resolve(
            readFileSync(file).toString('latin1') +
              readFileSync(`${file}-wal`, { flag: 'a+' }).toString('latin1'),
          ),
      };
      cleanup = () => Promise.resolve(rmSync(dir, { recursive: true, force: true }));
      return;
    }
    const { url, drop } = await freshPostgresDatabase();
    current = {
      open: async () => track(await postgresSessionDatabase(url)),
      dump: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          // Byte columns as their bytes (`escape`), so a secret stored unsealed would show as itself.
          const { rows } = await client.query<{ text: string | null }>(
            `SELECT concat_ws(' ',
               (SELECT string_agg(concat_ws(' ', id_hash, principal, encode(credential, 'escape')), ' ') FROM gateway_sessions),
               (SELECT string_agg(concat_ws(' ', state_hash, browser_hash, encode(pending, 'escape')), ' ') FROM gateway_logins)
             ) AS text`,
          );
          return rows[0]?.text ?? '';
        } finally {
          await client.end();
        }
      },
    };
    cleanup = drop;
  });
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close().catch(() => undefined);
    await cleanup();
  });
  function track(db: SessionDatabase): SessionDatabase {
    opened.push(db);
    return db;
  }
  return () => {
    if (!current) throw new Error('the session place is made before each test');
    return current;
  };
}

/** A new empty database on the test run's PostgreSQL cluster, and how to drop it. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgUrl');
  const database = `gw_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${database}`);
  return {
    url: adminUrl.replace(/\/postgres$/, `/${database}`),
    drop: async () => {
      // pg's Pool.end() resolves before its connections have closed: wait for them, then drop.
      for (
        let attempt = 0;
        attempt < 100 && (await connectionsTo(adminUrl, database)) > 0;
        attempt += 1
      )
        await new Promise((resolve) => setTimeout(resolve, 20));
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

async function adminQuery(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

async function connectionsTo(adminUrl: string, database: string): Promise<number> {
  const { rows } = await adminQuery(
    adminUrl,
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
    [database],
  );
  return (rows[0] as { n: number } | undefined)?.n ?? 0;
}
