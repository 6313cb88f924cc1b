// The report's header: when, on what, and how busy the machine was (the figures depend on all three).
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';

async function firstLine(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(command, args, { timeout: 10_000 });
    return stdout.split('\n')[0]?.trim() || 'unknown';
  } catch {
    return 'not found';
  }
}

export async function machineHeader(): Promise<string> {
  const cpus = os.cpus();
  const [commit, changes, postgres, chromium] = await Promise.all([
    firstLine('git', ['rev-parse', '--short', 'HEAD']),
    firstLine('git', ['status', '--porcelain', '--untracked-files=no']),
    firstLine('postgres', ['--version']).then((found) =>
      found === 'not found' ? firstLine('initdb', ['--version']) : found,
    ),
    firstLine(process.env.CHROME_PATH ?? '/usr/bin/chromium', ['--version']),
  ]);
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  return [
    '# Listkeeper benchmark report',
    '',
    `- date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    `- commit: ${commit}${changes === 'not found' || changes === 'unknown' ? '' : ' with uncommitted changes'}`,
    `- machine: ${os.availableParallelism()} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`,
    `- load average when the run started (1, 5, 15 min): ${load}; servers, databases, browser and load generators all share these cores`,
    `- Node ${process.version}; ${postgres}; ${chromium}`,
  ].join('\n');
}
