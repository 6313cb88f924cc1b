// `npm start` (after the build): seed the demo, run the reference server on a loopback port of its
// own, and in this process the dashboard gateway in front of it (issue 15 item 5: one way in, the
// browser holds only a session cookie); then say in words where to go and which credential does
// what (issue 17 item 7). `listkeeper demo` prints JSON for scripts; people get this.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import * as z from 'zod';
import { GATEWAY_PATHS } from '../src/api/gateway.ts';
import { buildGateway } from '../src/gateway/app.ts';
import { loadGatewayConfig } from '../src/gateway/config.ts';
import { freePort } from '../src/gateway/in-process.ts';
import { openSessionStore } from '../src/gateway/open-session-store.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const cli = path.join(repoRoot, 'src/server/cli.ts');

/** What `listkeeper demo` prints (src/server/demo/demo.ts `DemoResult`), as far as this reads it. */
const DemoOutput = z.object({
  global_key: z.string(),
  account_key: z.string(),
  account: z.string(),
  people: z.array(
    z.object({
      username: z.string(),
      password: z.string(),
      account: z.string().nullable(),
      role: z.string(),
    }),
  ),
});
type DemoOutput = z.infer<typeof DemoOutput>;

/** The gateway's client at the server: `oauth-client gateway` prints it. */
const GatewayClient = z.object({ client_id: z.string(), client_secret: z.string() });

// The page's origin is the gateway's: PORT (8080) on `localhost`, a host other than the server's
// 127.0.0.1, so the server's sign-in pages and the dashboard never share cookies.
const port = Number(process.env.PORT ?? 8080);
const publicUrl = process.env.PUBLIC_URL?.replace(/\/+$/, '') || `http://localhost:${port}`;
const apiPort = Number(process.env.API_PORT ?? (await freePort()));
const apiUrl = `http://127.0.0.1:${apiPort}`;
const serverEnv = { ...process.env, PORT: String(apiPort), HOST: '127.0.0.1', PUBLIC_URL: apiUrl };
// Where `serve` keeps its database and, with no SMTP_URL, the mail it would send (README "Mail").
const dataDir = path.resolve(repoRoot, process.env.DATA_DIR ?? 'data');

const demo = await runDemo();
const client = GatewayClient.parse(
  JSON.parse(
    await runCli([
      'oauth-client',
      'gateway',
      '--redirect-uri',
      `${publicUrl}${GATEWAY_PATHS.callback}`,
    ]),
  ),
);
const server = spawn(process.execPath, [cli, 'serve'], {
  cwd: repoRoot,
  env: serverEnv,
  stdio: ['ignore', 'pipe', 'inherit'],
});
// A failure of ours (process.exitCode) outranks the server's clean stop.
server.on('exit', (code) => process.exit(Number(process.exitCode ?? 0) || (code ?? 0)));

// `serve` prints one JSON line once it listens; then the gateway starts in front of it.
for await (const line of createInterface({ input: server.stdout })) {
  if (listeningAddress(line)) {
    // The gateway cannot start (PORT in use…): the server goes with it, not left behind.
    await startGateway().catch((error: unknown) => {
      console.error(
        `The dashboard gateway could not start: ${error instanceof Error ? error.message : String(error)}`,
      );
      server.kill('SIGTERM');
      process.exitCode = 1;
    });
  } else console.log(line);
}

async function startGateway() {
  const config = loadGatewayConfig({
    ...process.env,
    UPSTREAM_URL: apiUrl,
    UPSTREAM_NAME: 'Listkeeper',
    UPSTREAM_CLIENT_ID: client.client_id,
    UPSTREAM_CLIENT_SECRET: client.client_secret,
    PORT: String(port),
    PUBLIC_URL: publicUrl,
  });
  const store = await openSessionStore(config);
  const gateway = await buildGateway({ config, store });
  const stop = async (signal: NodeJS.Signals) => {
    await gateway.close();
    await store.close();
    server.kill(signal);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await gateway.listen({ port: config.port, host: config.host });
  console.log(summary(publicUrl, demo));
}

async function runCli(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: repoRoot,
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) {
    console.error(`listkeeper ${args.join(' ')} failed (exit ${code}):\n${output}`);
    process.exit(1);
  }
  return output;
}

async function runDemo(): Promise<DemoOutput> {
  const output = await runCli(['demo']);
  const parsed = DemoOutput.safeParse(safeJson(output));
  if (!parsed.success) {
    console.error(`listkeeper demo printed something else:\n${output}`);
    process.exit(1);
  }
  return parsed.data;
}

function listeningAddress(line: string): string | null {
  const parsed = z.object({ listening: z.string() }).safeParse(safeJson(line));
  return parsed.success ? parsed.data.listening : null;
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
    'Sign in with one of these usernames and passwords ("Sign in with your account at Listkeeper"):',
    ...people,
    '',
    'Or paste an API key into the "API key" field:',
    `    ${demo.account_key}`,
    `      the account key of "${demo.account}": a superadmin of that account`,
    `    ${demo.global_key}`,
    '      the global key: every account of the group (press s to switch accounts)',
    '',
    'Passwords and keys are new on every `npm start`; earlier keys keep working. Ctrl-C stops the server.',
    `The browser holds only a session cookie; the API itself is at ${apiUrl}/api/2/ for scripts.`,
    '',
    `Members join and leave on a list's own page, e.g. ${apiUrl}/l/community@lists.demo.example/`,
    `(its archive at …/archive/). No mail leaves this machine: what would be sent is written to`,
    `${path.join(dataDir, 'outbox-sink')}/, one file per message, where the confirmation links are.`,
    '',
  ].join('\n');
}
