import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { freePort, startPostgresCluster, type PostgresCluster } from './postgres-cluster.ts';
import { waitForServer } from './server-process.ts';

/**
 * SECURITY.md 23: clients log every contact that got a 2xx while the server (and, on PostgreSQL,
 * the database) is killed at a random moment; after each restart every acknowledged write must be
 * there, whole (a contact with its address), with its audit entry (issue 26 item 4: written in the
 * same transaction), and the database must be intact. Shared by the small run in `npm test` and
 * the large one in `npm run bench -- --crash N`.
 */
export interface CrashReport {
  dialect: 'sqlite' | 'postgres';
  rounds: number;
  acknowledged: number;
  missing: number;
  halfWritten: number;
  /** Acknowledged writes without their `contacts.create` audit entry. */
  unrecorded: number;
  integrity: string;
}

const cli = path.resolve(import.meta.dirname, '../cli.ts');
const WRITERS = 4;

interface Acknowledged {
  id: number;
  email: string;
}

/**
 * Writes contacts until stopped, and beside them makes and deletes lists (a delete runs in steps,
 * its entry in its last transaction); only answers that arrived with a 2xx count as acknowledged.
 */
async function writeUntil(
  stop: { done: boolean },
  base: string,
  key: string,
  round: number,
  into: Acknowledged[],
  deletedLists: number[],
) {
  let n = 0;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' };
  const lists = async () => {
    for (let l = 0; !stop.done; l++) {
      try {
        const created = await fetch(`${base}/api/2/lists/`, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ name: `crash-${round}-${l}` }),
        });
        if (!created.ok) continue;
        const { id } = (await created.json()) as { id: number };
        const deleted = await fetch(`${base}/api/2/lists/crash-${round}-${l}/`, { method: 'DELETE', headers });
        if (deleted.ok) deletedLists.push(id);
      } catch {
        // As below: never acknowledged.
      }
    }
  };
  const writer = async (w: number) => {
    while (!stop.done) {
      const email = `crash-${round}-${w}-${n++}@example.org`;
      try {
        const response = await fetch(`${base}/api/2/contacts/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ emails: email, firstname: 'Crash', notes: `round ${round}` }),
        });
        if (response.ok) into.push({ id: ((await response.json()) as { id: number }).id, email });
      } catch {
        // The connection died with the server: this write was never acknowledged.
      }
    }
  };
  await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), lists()]);
}

export async function runCrashRounds(dialect: 'sqlite' | 'postgres', rounds: number, random = Math.random): Promise<CrashReport> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-crash-'));
  let cluster: PostgresCluster | undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', STATIC_DIR: dataDir };
  try {
    if (dialect === 'postgres') {
      cluster = await startPostgresCluster({ durable: true });
      env.DATABASE_URL = cluster.url;
    }
    const runCli = async (args: string[]) =>
      JSON.parse((await promisify(execFile)(process.execPath, [cli, ...args], { env })).stdout) as Record<string, unknown>;
    await runCli(['account', 'create', 'crash', '--max-contacts', '1000000']);
    const { key } = (await runCli(['key', 'create', '--account', 'crash'])) as { key: string };

    const acknowledged: Acknowledged[] = [];
    const deletedLists: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const port = await freePort();
      const server = spawn(process.execPath, [cli, 'serve'], { env: { ...env, PORT: String(port) }, stdio: 'ignore' });
      const base = `http://127.0.0.1:${port}`;
      await waitForServer(`${base}/api/2/`, server);
      const stop = { done: false };
      const writing = writeUntil(stop, base, key, round, acknowledged, deletedLists);
      await new Promise((resolve) => setTimeout(resolve, 150 + random() * 600));
      // The kill: the server mid-write, and on PostgreSQL the database with it (no checkpoint).
      server.kill('SIGKILL');
      cluster?.crash();
      stop.done = true;
      await writing;
      await new Promise<void>((resolve) => (server.exitCode !== null || server.signalCode !== null ? resolve() : server.once('exit', () => resolve())));
      cluster?.restart();
    }
    return {
      dialect,
      rounds,
      acknowledged: acknowledged.length + deletedLists.length,
      ...(await verify(dialect, dataDir, cluster?.url, acknowledged, deletedLists)),
    };
  } finally {
    cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Every acknowledged contact is there with its address, every acknowledged list delete gone, each
 * with its audit entry; nothing half-written; the store is intact.
 */
async function verify(
  dialect: 'sqlite' | 'postgres',
  dataDir: string,
  url: string | undefined,
  acknowledged: Acknowledged[],
  deletedLists: number[],
) {
  const contactsSql = 'select c.id, e.email from contacts c join emails e on e.contact_id = c.id';
  const recordedSql = "select operation, object_id from audit_entries where operation in ('contacts.create', 'lists.delete')";
  const listsSql = 'select id from lists';
  const orphanSql = 'select count(*) as n from contacts c where not exists (select 1 from emails e where e.contact_id = c.id)';
  let rows: { id: number; email: string }[];
  let recorded: { operation: string; object_id: string }[];
  let lists: { id: number }[];
  let halfWritten: number;
  let integrity: string;
  if (dialect === 'sqlite') {
    const file = new SqliteDatabase(path.join(dataDir, 'listkeeper.db'));
    try {
      rows = file.prepare(contactsSql).all() as { id: number; email: string }[];
      recorded = file.prepare(recordedSql).all() as { operation: string; object_id: string }[];
      lists = file.prepare(listsSql).all() as { id: number }[];
      halfWritten = (file.prepare(orphanSql).get() as { n: number }).n;
      integrity = file.pragma('integrity_check', { simple: true }) as string;
    } finally {
      file.close();
    }
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      rows = (await client.query<{ id: number; email: string }>(contactsSql)).rows;
      recorded = (await client.query<{ operation: string; object_id: string }>(recordedSql)).rows;
      lists = (await client.query<{ id: number }>(listsSql)).rows;
      halfWritten = Number((await client.query<{ n: string }>(orphanSql)).rows[0]?.n ?? 0);
      // PostgreSQL checks pages on read; a full read of every table is its integrity check here.
      await client.query('select count(*) from contacts, (select count(*) from emails) e');
      integrity = 'ok';
    } finally {
      await client.end();
    }
  }
  const stored = new Map(rows.map((row) => [Number(row.id), row.email]));
  const remaining = new Set(lists.map((row) => Number(row.id)));
  const missing =
    acknowledged.filter((write) => stored.get(write.id) !== write.email).length +
    deletedLists.filter((id) => remaining.has(id)).length;
  const entries = new Set(recorded.map((row) => `${row.operation} ${row.object_id}`));
  const unrecorded =
    acknowledged.filter((write) => !entries.has(`contacts.create ${write.id}`)).length +
    deletedLists.filter((id) => !entries.has(`lists.delete ${id}`)).length;
  return { missing, halfWritten, unrecorded, integrity };
}
