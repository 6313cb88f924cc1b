import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const CLI = path.join(import.meta.dirname, '..', 'cli.ts');

export interface CliResult {
  /** The exit code: 0, 1 for a refused command, 2 for an unknown one. */
  code: number;
  /** What it printed on stdout, parsed; undefined when that is not JSON. */
  json: Record<string, unknown> | undefined;
  stderr: string;
}

/**
 * A data folder of its own for the suite (made before it, removed after it), and `cli`, which runs
 * `listkeeper …` there as a user would, on SQLite, with `stdin` piped in.
 */
export function useCliDataDir(): {
  dataDir: () => string;
  /** `env`: variables set for this run only (EXTENSIONS=off, …). */
  cli: (args: string[], stdin?: string, env?: Record<string, string>) => Promise<CliResult>;
} {
  let dataDir = '';
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'listkeeper-cli-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    dataDir: () => dataDir,
    cli: (args, stdin = '', env = {}) => runCli(dataDir, args, stdin, env),
  };
}

export function runCli(
  dataDir: string,
  args: string[],
  stdin: string,
  extraEnv: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...extraEnv };
    const child = execFile(process.execPath, [CLI, ...args], { env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      resolve({ code, json, stderr });
    });
    child.stdin?.end(stdin);
  });
}
