// Mail (issue 18 item 6): `npm run bench -- --mail`. The measurements run in a process of their own
// (src/server/test/mail-bench-run.ts): SMTP in, a fan-out to 100,000 addresses into the local sink,
// the posting policy's decision time, and how long a GET waits while a 10 MB message arrives.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { markdownTable } from './markdown-table.ts';
import type { SectionResult } from './section.ts';

const runner = path.resolve(import.meta.dirname, '../src/server/test/mail-bench-run.ts');

export async function mailSection(progress: (line: string) => void): Promise<SectionResult> {
  const child = spawn(process.execPath, ['--expose-gc', runner], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const lines = createInterface({ input: child.stderr });
  lines.on('line', (line) => progress(line));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) return { name: 'Mail', ok: false, text: `The mail bench exited with ${code}.` };
  const rows = JSON.parse(output) as string[][];
  return { name: 'Mail', ok: true, text: markdownTable(['measure', 'result'], rows) };
}
