// What the HTTP benchmark sections share: the bare node:http baseline and autocannon runs (the real
// server: src/server/test/server-process.ts).
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { freePort } from '../src/server/test/postgres-cluster.ts';
import { stopProcess, waitForServer } from '../src/server/test/server-process.ts';

export interface Running {
  url: string;
  stop(): Promise<void>;
}

/** A bare node:http server in its own process answering a fixed contact: the ceiling of Node here. */
export async function startBareServer(): Promise<Running> {
  const port = await freePort();
  const body = JSON.stringify({
    id: 1,
    firstname: 'Ada',
    surname: 'Lovelace',
    emails: [],
    lists: [],
  });
  const source = `require('node:http').createServer((q, s) => { s.writeHead(200, {'content-type': 'application/json'}); s.end(${JSON.stringify(body)}); }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', source], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitForServer(url, child);
  return { url, stop: () => stopProcess(child) };
}

export interface Measured {
  requests: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, errors and timeouts. */
  failed: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Runs autocannon and takes the latencies of the 2xx answers from its per-response events: they
 * are exact to the microsecond, where its histogram rounds to whole milliseconds.
 */
export async function measure(options: autocannon.Options): Promise<Measured> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error as Error) : resolve(done)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  latencies.sort((a, b) => a - b);
  return {
    requests: result.requests.average,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed: result.non2xx + result.errors + result.timeouts,
  };
}
