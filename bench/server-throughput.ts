// Server throughput (issue #3 item 8): requests per second and p50/p99 latency of the hot
// endpoints on a database of N demo contacts, beside a bare node:http server answering a fixed JSON
// body in the same run. The ratio to that baseline is the figure that travels between machines.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import type { SectionResult } from './section.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const cli = path.join(repoRoot, 'src/server/cli.ts');

export interface ThroughputOptions {
  contacts: number;
  /** Seconds per endpoint. */
  duration: number;
  connections: number;
}

interface Measured {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer in 30 s`);
}

async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  const result = await autocannon(options);
  return {
    name,
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/** A bare node:http server in its own process: the ceiling of what Node serves on this machine. */
function startBareServer(port: number): ChildProcess {
  const body = JSON.stringify({ id: 1, firstname: 'Ada', surname: 'Lovelace', emails: [], lists: [] });
  const source = `require('node:http').createServer((q, s) => { s.writeHead(200, {'content-type': 'application/json'}); s.end(${JSON.stringify(body)}); }).listen(${port}, '127.0.0.1');`;
  return spawn(process.execPath, ['-e', source], { stdio: 'ignore' });
}

export async function serverThroughput(options: ThroughputOptions): Promise<SectionResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'listkeeper-bench-'));
  const children: ChildProcess[] = [];
  try {
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const started = Date.now();
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'demo', '--contacts', String(options.contacts)], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    const demoSeconds = (Date.now() - started) / 1000;
    const demo = JSON.parse(stdout) as { account_key: string };

    const port = await freePort();
    // One-second windows keep a 100k-contact plan's allowance (3 × 100k per window) above what
    // the load generator can ask for, so the figures measure serving, not 429s.
    const server = spawn(process.execPath, [cli, 'serve'], {
      env: { ...env, PORT: String(port), RATE_LIMIT_WINDOW_SECONDS: '1' },
      stdio: 'ignore',
    });
    children.push(server);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/api/2/`, server);

    const barePort = await freePort();
    const bare = startBareServer(barePort);
    children.push(bare);
    await waitForHttp(`http://127.0.0.1:${barePort}/`, bare);

    const headers = { authorization: `Bearer ${demo.account_key}` };
    const page = (await (await fetch(`${base}/api/2/contacts/?limit=1000`, { headers })).json()) as {
      data: { id: number; surname: string }[];
    };
    const ids = page.data.map((c) => c.id);
    const surnames = [...new Set(page.data.map((c) => c.surname.toLowerCase()))].slice(0, 50);
    if (ids.length === 0) throw new Error('the demo account has no contacts');
    let n = 0;
    const pick = <T>(items: T[]): T => items[n++ % items.length] as T;
    const common = { connections: options.connections, duration: options.duration, headers };

    const results: Measured[] = [];
    results.push(await measure('bare node:http (baseline)', { ...common, url: `http://127.0.0.1:${barePort}/` }));
    results.push(
      await measure('GET /contacts/:id/', {
        ...common,
        url: base,
        requests: [{ setupRequest: (r) => ({ ...r, path: `/api/2/contacts/${pick(ids)}/` }) }],
      }),
    );
    results.push(await measure('GET /contacts/?limit=100', { ...common, url: `${base}/api/2/contacts/?limit=100` }));
    results.push(
      await measure('GET /contacts/?search=…', {
        ...common,
        url: base,
        requests: [{ setupRequest: (r) => ({ ...r, path: `/api/2/contacts/?limit=100&search=${encodeURIComponent(pick(surnames))}` }) }],
      }),
    );
    let created = 0;
    results.push(
      await measure('POST /contacts/', {
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
      }),
    );

    const baseline = results[0]?.requests ?? 1;
    const rows = results.map(
      (r) =>
        `| ${r.name} | ${r.requests.toFixed(0)} | ${(r.requests / baseline).toFixed(2)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.non2xx} |`,
    );
    const single = results[1];
    const search = results[3];
    const singleRatio = single ? single.requests / baseline : 0;
    const checks = [
      `search p99 ${search?.p99.toFixed(1)} ms (budget < 50 ms): ${search && search.p99 < 50 ? 'PASS' : 'FAIL'}`,
      `single GET at ${(singleRatio * 100).toFixed(0)}% of bare throughput (budget ≥ 40%): ${singleRatio >= 0.4 ? 'PASS' : 'FAIL'}`,
    ];
    const ok = checks.every((line) => line.endsWith('PASS'));
    const text = [
      `${options.contacts} demo contacts on SQLite (demo built in ${demoSeconds.toFixed(1)} s); ${options.connections} connections, ${options.duration} s per endpoint; load generator and server share this machine's ${availableParallelism()} cores.`,
      '',
      '| endpoint | req/s | × bare | p50 ms | p99 ms | non-2xx |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
      ...checks,
    ].join('\n');
    return { name: 'Server throughput', ok, text };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}
