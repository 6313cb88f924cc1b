import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from './postgres-cluster.ts';
import { stopProcess, waitForServer } from './server-process.ts';

const cli = path.resolve(import.meta.dirname, '../cli.ts');

export interface ServeWithOutput {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr. */
  output: () => string;
  /**
   * The exit code once the process has ended by itself, or 'still running' (it is then stopped)
   * when it has not after `ms`: a start that fails must end, not hang.
   */
  ended(ms?: number): Promise<number | null | 'still running'>;
  stop(): Promise<void>;
}

/**
 * `listkeeper serve` on a free loopback port with everything it prints kept: the test of
 * SECURITY.md 39 reads every line it logs. `waitUntilUp: false` for a start that is meant to fail.
 */
export async function startServeWithOutput(
  env: NodeJS.ProcessEnv,
  options: { waitUntilUp?: boolean } = {},
): Promise<ServeWithOutput> {
  const port = await freePort();
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const url = `http://127.0.0.1:${port}`;
  if (options.waitUntilUp !== false) {
    try {
      await waitForServer(`${url}/api/2/`, child);
    } catch (error) {
      await stopProcess(child);
      throw new Error(`${String(error)}\n${Buffer.concat(chunks).toString()}`);
    }
  }
  return {
    url,
    child,
    output: () => Buffer.concat(chunks).toString(),
    async ended(ms = 30_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'still running'>((resolve) => {
        timer = setTimeout(() => resolve('still running'), ms);
      });
      const result = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (result === 'still running') await stopProcess(child);
      return result;
    },
    stop: async () => {
      await stopProcess(child);
      await exited;
    },
  };
}
