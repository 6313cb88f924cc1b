import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster for tests: a fresh data folder on a free port, stopped and removed
 * after. PostgreSQL refuses to run as root, so as root the folder goes to the `postgres` user.
 */
export interface PostgresCluster {
  url: string;
  /** Stops like a power cut (`pg_ctl stop -m immediate`: no checkpoint), keeping the data. */
  crash(): void;
  /** Starts the cluster again on the same data and port (crash recovery runs then). */
  restart(): void;
  stop(): void;
}

export function postgresAvailable(): string | null {
  const found = spawnSync('initdb', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) return 'initdb is not on PATH (install PostgreSQL to run these tests)';
  if (process.getuid?.() === 0 && spawnSync('id', ['postgres']).status !== 0) {
    return 'running as root without a postgres user';
  }
  return null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPostgresCluster(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    execFileSync(file, argv, { stdio: 'pipe' });
  };
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  fs.chmodSync(dir, 0o700);
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  // Ordinary tests trade durability for speed; crash tests ask for a durable cluster.
  const speed = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const start = () =>
    run('pg_ctl', [
      '-D', dataDir, '-l', path.join(dir, 'log'), '-w', 'start',
      '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${speed}`,
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
    restart: start,
    stop() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
