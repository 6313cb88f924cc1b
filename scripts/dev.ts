// `npm run dev`: the reference server (restarted when its code changes) and Vite's dev server,
// whose proxy forwards /api, /config.json and /.well-known to it. Ctrl-C stops both.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');
const cli = path.join(repoRoot, 'src/server/cli.ts');
const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
const apiPort = process.env.API_PORT ?? '8080';
// The dashboard is served by Vite on 5173 in dev: its OAuth redirect URI must name that origin.
const env = { ...process.env, PORT: apiPort, HOST: '127.0.0.1', API_PORT: apiPort, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://127.0.0.1:5173' };

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, args, { cwd: repoRoot, env, stdio: 'inherit' });
}

// Seed demo data so the dashboard has something to show on first start.
const demo = start([cli, 'demo']);
const demoCode = await new Promise<number | null>((resolve) => demo.on('exit', resolve));
if (demoCode !== 0) console.warn(`listkeeper demo exited with ${demoCode}; starting anyway`);

const children = [start(['--watch', cli, 'serve']), start([vite])];
let stopping = false;

function stopAll(exitCode: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  process.exitCode = exitCode;
}

for (const child of children) {
  child.on('exit', (code) => stopAll(code ?? 0));
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
