// `npm start` (after the build): seed the demo, serve, and say in words where to go and which
// credential does what (issue 17 item 7). `listkeeper demo` prints JSON for scripts; people get this.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import * as z from 'zod';

const repoRoot = path.resolve(import.meta.dirname, '..');
const cli = path.join(repoRoot, 'src/server/cli.ts');

/** What `listkeeper demo` prints (src/server/demo/demo.ts `DemoResult`), as far as this reads it. */
const DemoOutput = z.object({
  global_key: z.string(),
  account_key: z.string(),
  account: z.string(),
  people: z.array(
    z.object({ username: z.string(), password: z.string(), account: z.string().nullable(), role: z.string() }),
  ),
});
type DemoOutput = z.infer<typeof DemoOutput>;

const demo = await runDemo();
const server = spawn(process.execPath, [cli, 'serve'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
process.on('SIGINT', () => server.kill('SIGINT'));
process.on('SIGTERM', () => server.kill('SIGTERM'));
server.on('exit', (code) => process.exit(code ?? 0));

// `serve` prints one JSON line once it listens; the address it names is the one to open.
for await (const line of createInterface({ input: server.stdout })) {
  const listening = listeningAddress(line);
  if (listening) console.log(summary(listening, demo));
  else console.log(line);
}

async function runDemo(): Promise<DemoOutput> {
  const child = spawn(process.execPath, [cli, 'demo'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const parsed = DemoOutput.safeParse(safeJson(output));
  if (code !== 0 || !parsed.success) {
    console.error(`listkeeper demo failed (exit ${code}):\n${output}`);
    process.exit(1);
  }
  return parsed.data;
}

function listeningAddress(line: string): string | null {
  const parsed = z.object({ listening: z.string() }).safeParse(safeJson(line));
  if (!parsed.success) return null;
  // A wildcard bind is reached through loopback.
  return parsed.data.listening.replace('://0.0.0.0', '://127.0.0.1').replace('://[::]', '://[::1]');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The words `npm start` ends with. */
function summary(url: string, demo: DemoOutput): string {
  const width = Math.max(...demo.people.map((p) => p.username.length));
  const people = demo.people.map(
    (p) => `    ${p.username.padEnd(width)}  ${p.password}\n    ${' '.repeat(width)}  ${p.role}`,
  );
  return [
    '',
    `Listkeeper is running. Open ${url}/ in your browser.`,
    '',
    'Sign in with one of these usernames and passwords ("Sign in with your Listkeeper account"):',
    ...people,
    '',
    'Or paste an API key into the "API key" field:',
    `    ${demo.account_key}`,
    `      the account key of "${demo.account}": a superadmin of that account`,
    `    ${demo.global_key}`,
    '      the global key: every account of the group (press s to switch accounts)',
    '',
    'Passwords and keys are new on every `npm start`; earlier keys keep working. Ctrl-C stops the server.',
    '',
  ].join('\n');
}
