// What the HTTP benchmark sections share: the bare node:http baseline and autocannon runs (the real
// server: src/server/test/server-process.ts).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { freePort } from '../src/server/test/postgres-cluster.ts';
import { stopProcess, waitForServer } from '../src/server/test/server-process.ts';

export interface Running {
  url: string;
  /** Its process, whose CPU time `measure` reads. */
  pid: number;
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
  return { url, pid: child.pid ?? 0, stop: () => stopProcess(child) };
}

export interface Measured {
  requests: number;
  /**
   * The server's CPU time per answered request, in µs (issue 28 item 6): what the request costs
   * the server whatever share of the cores the load generator takes, unlike req/s.
   */
  cpuMicros?: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, errors and timeouts. */
  failed: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's user + system CPU time in µs, every thread counted (Linux's /proc/<pid>/stat). */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces, in parentheses: utime and stime are
  // the 14th and 15th fields of the line, the 12th and 13th after the name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / clockTicks) * 1e6;
}

/**
 * Runs autocannon and takes the latencies of the 2xx answers from its per-response events: they
 * are exact to the microsecond, where its histogram rounds to whole milliseconds.
 */
export async function measure(options: autocannon.Options, serverPid?: number): Promise<Measured> {
  const latencies: number[] = [];
  const cpuBefore = serverPid ? processCpuMicros(serverPid) : 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) =>
      error ? reject(error as Error) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  const cpu = serverPid ? processCpuMicros(serverPid) - cpuBefore : 0;
  latencies.sort((a, b) => a - b);
  return {
    requests: result.requests.average,
    cpuMicros: serverPid && result.requests.total > 0 ? cpu / result.requests.total : undefined,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed: result.non2xx + result.errors + result.timeouts,
  };
}
