// Server throughput (issue #3 item 8): requests per second and p50/p99 latency of the hot
// endpoints on a database of N demo contacts, beside a bare node:http server answering a fixed JSON
// body in the same run. The ratio to that baseline is the figure that travels between machines.
//
// Two modes per endpoint: 10 connections (throughput; on a single-threaded server the latency there
// is mostly queueing) and 1 connection (the latency of one request as a user sees it). Each budget
// names the mode it is checked against.
//
// `node bench/server-throughput.ts [--contacts N] [--duration S] [--postgres]` runs this section
// alone; `--postgres` serves from a throwaway PostgreSQL cluster instead of SQLite.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import type autocannon from 'autocannon';
import {
  freePort,
  postgresAvailable,
  startPostgresCluster,
  type PostgresCluster,
} from '../src/server/test/postgres-cluster.ts';
import { stopProcess, waitForServer } from '../src/server/test/server-process.ts';
import { measure, startBareServer, type Measured } from './http-bench.ts';
import type { SectionResult } from './section.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const cli = path.join(repoRoot, 'src/server/cli.ts');

export interface ThroughputOptions {
  contacts: number;
  /** Seconds per endpoint and mode. */
  duration: number;
  /** Connections of the throughput mode (the latency mode uses one). */
  connections: number;
  /** The database the server runs on; SQLite unless told. */
  database?: 'sqlite' | 'postgres';
}

interface Row extends Measured {
  name: string;
}

/** The demo account's plan during the run: an allowance no load generator here reaches. */
const BENCH_PLAN_CONTACTS = 100_000_000;

/**
 * The budgets of issue #3 item 8, and issue 16 §4: the single-contact GET keeps at least half of
 * bare node:http's throughput.
 */
const SEARCH_P99_BUDGET_MS = 50;
const SINGLE_GET_RATIO_BUDGET = 0.5;
/** Issue 28 item 6: the single GET costs the server at most twice bare node:http's CPU a request. */
const SINGLE_GET_CPU_BUDGET = 2;

/** One endpoint's figures under its name. */
async function measureRow(
  name: string,
  options: autocannon.Options,
  serverPid?: number,
): Promise<Row> {
  return { name, ...(await measure(options, serverPid)) };
}

export async function serverThroughput(options: ThroughputOptions): Promise<SectionResult> {
  const database = options.database ?? 'sqlite';
  const dataDir = await mkdtemp(path.join(tmpdir(), 'listkeeper-bench-'));
  const children: ChildProcess[] = [];
  const stops: (() => Promise<void>)[] = [];
  let cluster: PostgresCluster | null = null;
  try {
    let databaseUrl = '';
    if (database === 'postgres') {
      const unavailable = postgresAvailable();
      if (unavailable)
        return {
          name: 'Server throughput (PostgreSQL)',
          ok: false,
          text: `skipped: ${unavailable}`,
        };
      cluster = await startPostgresCluster();
      databaseUrl = cluster.url;
    }
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    };
    const started = Date.now();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'demo', '--contacts', String(options.contacts)],
      {
        env,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const demoSeconds = (Date.now() - started) / 1000;
    const demo = JSON.parse(stdout) as {
      account_key: string;
      global_key: string;
      account: string;
      account_ids: Record<string, number>;
    };

    const port = await freePort();
    // One-second windows (and the larger plan below) keep the allowance above what the load
    // generator can ask for, so the figures measure serving, not 429s.
    const server = spawn(process.execPath, [cli, 'serve'], {
      env: { ...env, PORT: String(port), RATE_LIMIT_WINDOW_SECONDS: '1' },
      stdio: 'ignore',
    });
    children.push(server);
    const base = `http://127.0.0.1:${port}`;
    await waitForServer(`${base}/api/2/`, server);

    const bare = await startBareServer();
    stops.push(() => bare.stop());

    // Pages served from stored documents ask for more objects a second than a 100k plan's 300k
    // allowance per one-second window; a larger plan keeps 429s out of the figures.
    const raised = await fetch(`${base}/api/2/accounts/${demo.account_ids[demo.account]}/`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${demo.global_key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `max_contacts=${BENCH_PLAN_CONTACTS}`,
    });
    if (!raised.ok)
      throw new Error(`raising the demo plan failed: ${raised.status} ${await raised.text()}`);
    const headers = { authorization: `Bearer ${demo.account_key}` };
    const page = (await (
      await fetch(`${base}/api/2/contacts/?limit=1000`, { headers })
    ).json()) as {
      data: { id: number; surname: string }[];
    };
    const ids = page.data.map((c) => c.id);
    const surnames = [...new Set(page.data.map((c) => c.surname.toLowerCase()))].slice(0, 50);
    if (ids.length === 0) throw new Error('the demo account has no contacts');
    let n = 0;
    const pick = <T>(items: T[]): T => items[n++ % items.length] as T;
    let created = 0;

    const endpoints = (connections: number): [string, autocannon.Options][] => {
      const common = { connections, duration: options.duration, headers };
      return [
        [
          'GET /contacts/:id/',
          {
            ...common,
            url: base,
            requests: [{ setupRequest: (r) => ({ ...r, path: `/api/2/contacts/${pick(ids)}/` }) }],
          },
        ],
        ['GET /contacts/?limit=100', { ...common, url: `${base}/api/2/contacts/?limit=100` }],
        [
          'GET /contacts/?search=…',
          {
            ...common,
            url: base,
            requests: [
              {
                setupRequest: (r) => ({
                  ...r,
                  path: `/api/2/contacts/?limit=100&search=${encodeURIComponent(pick(surnames))}`,
                }),
              },
            ],
          },
        ],
        [
          'POST /contacts/',
          {
            ...common,
            url: base,
            requests: [
              {
                method: 'POST',
                setupRequest: (r) => ({
                  ...r,
                  path: '/api/2/contacts/',
                  headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
                  body: `firstname=Bench&surname=Writer&emails=bench-${process.pid}-${created++}%40example.org`,
                }),
              },
            ],
          },
        ],
      ];
    };

    const loaded: Row[] = [
      await measureRow(
        'bare node:http (baseline)',
        { connections: options.connections, duration: options.duration, url: `${bare.url}/` },
        bare.pid,
      ),
    ];
    for (const [name, request] of endpoints(options.connections))
      loaded.push(await measureRow(name, request, server.pid));
    const alone: Row[] = [];
    for (const [name, request] of endpoints(1)) alone.push(await measureRow(name, request));

    const baseline = loaded[0]?.requests ?? 1;
    const ms = (value: number) => value.toFixed(1);
    const single = loaded.find((r) => r.name === 'GET /contacts/:id/');
    const search = alone.find((r) => r.name === 'GET /contacts/?search=…');
    const singleRatio = single ? single.requests / baseline : 0;
    const baselineCpu = loaded[0]?.cpuMicros ?? 0;
    const cpu = (row: Row) => (row.cpuMicros === undefined ? '–' : row.cpuMicros.toFixed(0));
    const cpuRatio = (row: Row) =>
      row.cpuMicros === undefined || baselineCpu === 0
        ? '–'
        : (row.cpuMicros / baselineCpu).toFixed(2);
    const singleCpu =
      single?.cpuMicros !== undefined && baselineCpu > 0
        ? single.cpuMicros / baselineCpu
        : Infinity;
    const checks = [
      `search p99 at 1 connection ${ms(search?.p99 ?? Infinity)} ms (budget < ${SEARCH_P99_BUDGET_MS} ms): ${search && search.p99 < SEARCH_P99_BUDGET_MS ? 'PASS' : 'FAIL'}`,
      `single GET at ${options.connections} connections: ${(singleRatio * 100).toFixed(0)}% of bare throughput (budget ≥ ${SINGLE_GET_RATIO_BUDGET * 100}%): ${singleRatio >= SINGLE_GET_RATIO_BUDGET ? 'PASS' : 'FAIL'}`,
      `single GET's server CPU a request: ${singleCpu.toFixed(2)}× bare (budget ≤ ${SINGLE_GET_CPU_BUDGET}×): ${singleCpu <= SINGLE_GET_CPU_BUDGET ? 'PASS' : 'FAIL'}`,
    ];
    const ok = checks.every((line) => line.endsWith('PASS'));
    const text = [
      `${options.contacts} demo contacts on ${database === 'postgres' ? 'PostgreSQL' : 'SQLite'} (demo built in ${demoSeconds.toFixed(1)} s); ${options.duration} s per endpoint and mode; load generator and server share this machine's ${availableParallelism()} cores.`,
      '',
      `Throughput, ${options.connections} connections (the single-GET budgets are checked here; latency here is mostly queueing). The server's CPU µs a request (its process's user + system time over the run, every thread, divided by the requests answered) does not move with the share of the cores the load generator takes, as req/s does:`,
      '',
      '| endpoint | req/s | × bare | server CPU µs/req | × bare | p50 ms | p99 ms | non-2xx |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...loaded.map(
        (r) =>
          `| ${r.name} | ${r.requests.toFixed(0)} | ${(r.requests / baseline).toFixed(2)} | ${cpu(r)} | ${cpuRatio(r)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failed} |`,
      ),
      '',
      'Latency as one user sees it, 1 connection (the search budget is checked here):',
      '',
      '| endpoint | req/s | p50 ms | p99 ms | non-2xx |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...alone.map(
        (r) =>
          `| ${r.name} | ${r.requests.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failed} |`,
      ),
      '',
      ...checks,
    ].join('\n');
    return {
      name: database === 'postgres' ? 'Server throughput (PostgreSQL)' : 'Server throughput',
      ok,
      text,
    };
  } finally {
    await Promise.all([...children.map(stopProcess), ...stops.map((stop) => stop())]);
    cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      contacts: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '10' },
      postgres: { type: 'boolean', default: false },
    },
  });
  const result = await serverThroughput({
    contacts: Number(values.contacts),
    duration: Number(values.duration),
    connections: 10,
    database: values.postgres ? 'postgres' : 'sqlite',
  });
  console.log(`## ${result.name}\n\n${result.text}`);
}
