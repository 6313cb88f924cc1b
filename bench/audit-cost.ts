// The audit log's cost (issue 26 item 4): `npm run bench -- --audit [--clients N] [--audit-seconds S]`.
// Two server processes on one database, one recording every write in the audit log and one built
// without it (src/server/test/audit-cost-server.ts), take turns under the same write-only clients,
// on SQLite and then on PostgreSQL (fsync on): writes per second with and without recording, in
// the same run, in alternating rounds so that the machine's other work falls on both alike.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  postgresAvailable,
  startPostgresCluster,
  freePort,
  type PostgresCluster,
} from '../src/server/test/postgres-cluster.ts';
import { runCliJson, stopProcess, waitForServer } from '../src/server/test/server-process.ts';
import { markdownTable } from './markdown-table.ts';
import type { SectionResult } from './section.ts';

export interface AuditCostOptions {
  clients: number;
  /** Seconds each mode runs in each round. */
  seconds: number;
  rounds: number;
  progress: (line: string) => void;
}

/** The most recording may cost a write (issue 26 item 4). */
const BUDGET = 0.1;
const serverScript = path.resolve(import.meta.dirname, '../src/server/test/audit-cost-server.ts');

interface Tally {
  writes: number;
  seconds: number;
  latencies: number[];
  failures: number;
}

export async function auditCost(options: AuditCostOptions): Promise<SectionResult> {
  const rows: (string | number)[][] = [];
  let ok = true;
  const loadBefore = os.loadavg();
  const unavailable = postgresAvailable();
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && unavailable) {
      rows.push(['PostgreSQL', `skipped: ${unavailable}`, '', '', '', '', '']);
      continue;
    }
    options.progress(
      `audit cost: ${dialect}, ${options.clients} clients, ${options.rounds} rounds of ${options.seconds} s a mode`,
    );
    const { on, off } = await measure(dialect, options);
    const cost = 1 - rate(on) / rate(off);
    ok &&= cost <= BUDGET && on.failures + off.failures === 0;
    rows.push([
      dialect === 'sqlite' ? 'SQLite (WAL, synchronous=FULL)' : 'PostgreSQL (fsync on)',
      rate(off).toFixed(0),
      rate(on).toFixed(0),
      `${(cost * 100).toFixed(1)} %`,
      `${percentile(off.latencies, 0.5).toFixed(1)} / ${percentile(on.latencies, 0.5).toFixed(1)}`,
      `${percentile(off.latencies, 0.99).toFixed(1)} / ${percentile(on.latencies, 0.99).toFixed(1)}`,
      on.failures + off.failures,
    ]);
  }
  const loadAfter = os.loadavg();
  const text = [
    `${options.clients} clients, one request at a time each, writing only (a contact created with a list, its notes changed, its list's settings changed, a membership added and removed, the contact deleted: six writes), ` +
      `${options.rounds} rounds of ${options.seconds} s per mode, the modes alternating. Budget: recording costs at most ${BUDGET * 100} % of the writes per second.`,
    '',
    markdownTable(
      [
        'database',
        'writes/s without the log',
        'writes/s with it',
        'cost',
        'p50 ms (without / with)',
        'p99 ms (without / with)',
        'failed requests',
      ],
      rows,
    ),
    '',
    `Load average (1, 5, 15 min) before: ${loadBefore.map((v) => v.toFixed(2)).join(', ')}; after: ${loadAfter.map((v) => v.toFixed(2)).join(', ')}, on ${os.availableParallelism()} cores that the clients, the servers and the database share with whatever else the machine runs.`,
  ].join('\n');
  return { name: 'Audit log: what recording costs a write', ok, text };
}

async function measure(
  dialect: 'sqlite' | 'postgres',
  options: AuditCostOptions,
): Promise<{ on: Tally; off: Tally }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-audit-cost-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STATIC_DIR: dataDir,
  };
  let cluster: PostgresCluster | undefined;
  const stops: (() => Promise<void>)[] = [];
  try {
    if (dialect === 'postgres') {
      cluster = await startPostgresCluster({ durable: true });
      env.DATABASE_URL = cluster.url;
    }
    await runCliJson(env, ['account', 'create', 'cost', '--max-contacts', '10000000']);
    const { key } = (await runCliJson(env, ['key', 'create', '--account', 'cost'])) as {
      key: string;
    };
    const servers: Record<'on' | 'off', string> = { on: '', off: '' };
    for (const mode of ['on', 'off'] as const) {
      const port = await freePort();
      const child = spawn(process.execPath, [serverScript], {
        env: { ...env, AUDIT_LOG: mode, PORT: String(port), HOST: '127.0.0.1' },
        stdio: 'ignore',
      });
      stops.push(() => stopProcess(child));
      servers[mode] = `http://127.0.0.1:${port}`;
      await waitForServer(`${servers[mode]}/api/2/`, child);
    }
    const lists = Array.from({ length: options.clients }, (_, n) => `cost-${n}`);
    for (const name of lists) await call(servers.on, key, 'POST', '/api/2/lists/', { name });
    const tallies = { on: tally(), off: tally() };
    for (let round = 0; round < options.rounds; round++) {
      for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        await writeFor(servers[mode], key, lists, round, mode, options.seconds, tallies[mode]);
      }
    }
    return tallies;
  } finally {
    for (const stop of stops) await stop();
    cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function tally(): Tally {
  return { writes: 0, seconds: 0, latencies: [], failures: 0 };
}

/** Every client runs the six writes over and over until the phase ends. */
async function writeFor(
  base: string,
  key: string,
  lists: string[],
  round: number,
  mode: string,
  seconds: number,
  into: Tally,
) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const timed = async (method: string, url: string, form?: Record<string, string | string[]>) => {
    const at = performance.now();
    const answer = await call(base, key, method, url, form).catch(() => null);
    into.latencies.push(performance.now() - at);
    if (answer === null) into.failures += 1;
    else into.writes += 1;
    return answer;
  };
  await Promise.all(
    lists.map(async (list, client) => {
      for (let n = 0; performance.now() < deadline; n++) {
        const address = `w${round}-${mode}-${client}-${n}@cost.example`;
        const contact = (await timed('POST', '/api/2/contacts/', {
          emails: address,
          firstname: 'Cost',
          lists: list,
        })) as {
          id: number;
          lists: { id: number }[];
        } | null;
        if (!contact) continue;
        await timed('PUT', `/api/2/contacts/${contact.id}/`, { notes: `round ${round} ${n}` });
        await timed('PUT', `/api/2/lists/${list}/?contacts=count`, {
          description: `Round ${round} ${n}`,
          subject_prefix: `[${n}]`,
        });
        const membershipId = contact.lists[0]?.id;
        if (membershipId !== undefined) await timed('DELETE', `/api/2/membership/${membershipId}/`);
        await timed('POST', '/api/2/membership/', { contact: String(contact.id), list });
        await timed('DELETE', `/api/2/contacts/${contact.id}/`);
      }
    }),
  );
  into.seconds += (performance.now() - started) / 1000;
}

async function call(
  base: string,
  key: string,
  method: string,
  url: string,
  form?: Record<string, string | string[]>,
): Promise<unknown> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form ?? {}))
    for (const one of [value].flat()) body.append(name, one);
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? body : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

function rate(tally: Tally): number {
  return tally.seconds === 0 ? 0 : tally.writes / tally.seconds;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}
