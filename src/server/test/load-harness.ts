import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { createApiClient } from '../../api/client.ts';
import { LoadClient, type LoadTarget } from './load-client.ts';
import type { LoadLog } from './load-log.ts';
import { LoadStats, type OperationStats } from './load-stats.ts';
import { openLoadDatabase, verifyLoad, type LoadDatabase, type Verdict } from './load-verify.ts';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.ts';
import { runCliJson, startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * Issue #10 item 2: real server processes (`listkeeper serve`) on one database, many clients doing
 * the mix of load-client.ts for a while; then every acknowledged write is checked in the database
 * (load-verify.ts says what lost, duplicated and phantom mean) and every answer is counted. Shared
 * by the short run in `npm test` (load.test.ts) and the long one in `npm run bench -- --load`.
 */
export interface LoadOptions {
  dialect: 'sqlite' | 'postgres';
  /** Server processes on the one database (two on PostgreSQL, one on SQLite by default). */
  servers?: number;
  clients: number;
  seconds: number;
  /** Steps each client makes at least, past `seconds` if need be (tests need every kind of write). */
  minimumSteps?: number;
  /** Contacts the demo seeds before the run, for the reads to read. */
  seedContacts: number;
  /** PostgreSQL with fsync on (the bench) or off (the tests' speed setting). */
  durable?: boolean;
  /** Called between the run and the verification, with the database (tests sabotage it here). */
  beforeVerify?: (db: LoadDatabase, log: LoadLog, accountId: number) => Promise<void>;
  progress?: (line: string) => void;
}

export interface LoadReport extends Verdict {
  dialect: 'sqlite' | 'postgres';
  servers: number;
  clients: number;
  /** How long the clients actually ran (the last requests end after the deadline). */
  seconds: number;
  seedContacts: number;
  requests: number;
  serverErrors: number;
  network: number;
  rateLimited: number;
  clientErrors: number;
  acknowledged: number;
  operations: OperationStats[];
  /** Servers that died during the run (their exit code or signal). */
  crashed: string[];
}

const LOAD_LISTS = ['load-news', 'load-volunteers', 'load-board'];
/** Allowance 3 × 10M objects an hour (spec §8 rule 2): the mix never meets it, so 429s mean a bug. */
const LOAD_MAX_CONTACTS = 10_000_000;

const DemoOutput = z.object({
  global_key: z.string(),
  account_key: z.string(),
  account_ids: z.record(z.string(), z.number()),
});

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const serverCount = options.servers ?? (options.dialect === 'postgres' ? 2 : 1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-load-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STATIC_DIR: dataDir,
  };
  let cluster: PostgresCluster | undefined;
  const servers: ServerProcess[] = [];
  try {
    if (options.dialect === 'postgres') {
      cluster = await startPostgresCluster({ durable: options.durable });
      env.DATABASE_URL = cluster.url;
    }
    const demo = DemoOutput.parse(
      await runCliJson(env, ['demo', '--contacts', String(options.seedContacts)]),
    );
    const accountId = demo.account_ids.demo ?? 0;

    for (let n = 0; n < serverCount; n++) servers.push(await startServerProcess(env));
    const bases = servers.map((server) => server.url);
    const target = await prepare(bases[0] ?? '', demo.global_key, demo.account_key, accountId);

    const log: LoadLog = {
      run: randomBytes(4).toString('hex'),
      contacts: new Map(),
      messages: new Map(),
      acknowledged: 0,
      acknowledgedBy: new Map(),
    };
    const stats = new LoadStats();
    const started = Date.now();
    const deadline = started + options.seconds * 1000;
    const ticker = setInterval(() => {
      const done = stats.summary().reduce((sum, op) => sum + op.requests, 0);
      options.progress?.(
        `  load ${options.dialect}: ${Math.round((Date.now() - started) / 1000)} s, ${done} requests`,
      );
    }, 10_000);
    try {
      await Promise.all(
        Array.from({ length: options.clients }, (_, n) =>
          new LoadClient(
            n,
            { ...target, baseUrl: bases[n % bases.length] ?? '' },
            log,
            stats,
            Math.random,
          ).runUntil(deadline, options.minimumSteps),
        ),
      );
    } finally {
      clearInterval(ticker);
    }
    const seconds = (Date.now() - started) / 1000;

    const crashed = servers
      .map(({ child }) => child.exitCode ?? child.signalCode)
      .filter((end) => end !== null)
      .map(String);
    await Promise.all(servers.map((server) => server.stop()));
    const db = await openLoadDatabase({ dataDir, databaseUrl: cluster?.url });
    let verdict: Verdict;
    try {
      await options.beforeVerify?.(db, log, accountId);
      verdict = await verifyLoad(db, accountId, log);
    } finally {
      await db.close();
    }
    const operations = stats.summary();
    const total = (key: 'requests' | 'serverErrors' | 'network' | 'rateLimited' | 'clientErrors') =>
      operations.reduce((sum, op) => sum + op[key], 0);
    return {
      dialect: options.dialect,
      servers: serverCount,
      clients: options.clients,
      seconds,
      seedContacts: options.seedContacts,
      requests: total('requests'),
      serverErrors: total('serverErrors'),
      network: total('network'),
      rateLimited: total('rateLimited'),
      clientErrors: total('clientErrors'),
      acknowledged: log.acknowledged,
      operations,
      crashed,
      ...verdict,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The account's plan raised out of the rate limit's way, the load's lists, and what reads read. */
async function prepare(
  base: string,
  globalKey: string,
  key: string,
  accountId: number,
): Promise<Omit<LoadTarget, 'baseUrl'>> {
  const global = createApiClient({ baseUrl: base, auth: { kind: 'bearer', token: globalKey } });
  await global.accounts.update(accountId, { max_contacts: LOAD_MAX_CONTACTS });
  const api = createApiClient({ baseUrl: base, auth: { kind: 'bearer', token: key } });
  for (const name of LOAD_LISTS)
    await api.lists.create({ name, description: 'Written by the load test' });
  const seeded = await api.contacts.list({ limit: 1000 });
  return {
    key,
    lists: LOAD_LISTS,
    surnames: [...new Set(seeded.data.map((c) => c.surname.toLowerCase()))],
    seededIds: seeded.data.map((c) => Number(c.id)),
  };
}
