import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './postgres-cluster.ts';

const cli = path.resolve(import.meta.dirname, '../cli.ts');

/** Resolves once `url` answers; fails when the process exits first or after 30 s. */
export async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error('the server did not start in 30 s');
}

/** SIGTERM (the server closes its connections and the database), then waits for the exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `listkeeper serve` with the given environment on a free loopback port, answering. */
export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${url}/api/2/`, child);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { url, child, stop: () => stopProcess(child) };
}

/** `listkeeper <args>` with the given environment: the JSON it prints. */
export async function runCliJson(env: NodeJS.ProcessEnv, args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [cli, ...args], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as unknown;
}
