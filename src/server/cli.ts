#!/usr/bin/env node
import * as z from 'zod';
import { buildApp } from './app.ts';
import { findCommand } from './cli-commands.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { HttpError } from './http/http-error.ts';
import { withCauses } from './lib/error-chain.ts';
import { systemClock } from './lib/clock.ts';
import { registerDashboardClient } from './oauth/clients.service.ts';
import { issuerOf } from './oauth/metadata.ts';

/**
 * The `listkeeper` command. Every command prints one JSON object on stdout so that scripts and
 * tests can read it; errors print `{"is_error": true, "message": …}` and exit 1.
 */
const USAGE = `usage: listkeeper <command>
  serve                                   run the API and the dashboard (PORT, HOST, DATA_DIR, DATABASE_URL)
  dashboard                               the dashboard in front of any API v2 server (UPSTREAM_URL, UPSTREAM_CLIENT_ID, UPSTREAM_CLIENT_SECRET, …)
  demo [--contacts N]                     fill the database with demo data (idempotent)
  account create NAME [--max-contacts N] [--ccid]
  key create (--global | --account NAME) [--permission P]... [--cidr C] [--expiry-months N] [--description D]
  user create --account NAME --username EMAIL [--permission P]...   (password on stdin)
  oauth-client create --name N --redirect-uri URI... [--public]
  oauth-client gateway --redirect-uri URI
  field create --account NAME --name N [--identifier I]`;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function serve(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  // A start that fails after the database is open (the mail settings, a port in use) closes what
  // it opened: an open pool or worker would keep the process alive, hung instead of exiting 1.
  const opened: { close(): Promise<unknown> }[] = [database];
  try {
    await startServing(config, database, opened);
  } catch (error) {
    for (const resource of opened.reverse()) await resource.close().catch(() => undefined);
    throw error;
  }
}

async function startServing(
  config: ReturnType<typeof loadConfig>,
  database: Awaited<ReturnType<typeof openDatabase>>,
  opened: { close(): Promise<unknown> }[],
): Promise<void> {
  const app = await buildApp({ config, database });
  opened.push(app);
  // Errors of the mail worker are logged without their details' secrets (SECURITY.md 39): a
  // message only, never the transport's options.
  // Imported here: the other commands need none of the mail libraries (they take seconds to load).
  const { startMail } = await import('./mail/mail-service.ts');
  const mail = await startMail(config, database.db, {
    onError: (error) =>
      app.log.error({ mail: error instanceof Error ? error.message : String(error) }, 'mail'),
    // The port bound, once listening (PORT=0 picks one): the members' links in mail point there.
    publicOrigin: () => issuerOf(config, boundPort(app)),
  });
  opened.push(mail);
  const shutdown = async () => {
    await mail.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  // Issue #4: the dashboard is a public OAuth client on the server's own origin. With PORT=0 the
  // origin is only known once listening.
  const registerDashboard = async (port: number) => {
    const origin = issuerOf(config, port);
    try {
      await registerDashboardClient(database.db, origin);
    } catch (error) {
      console.error(
        `Dashboard sign-in unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  // EXTENSIONS=off: clients are confidential only, so the dashboard signs in with a key (or
  // through `listkeeper dashboard`, a confidential client).
  const publicDashboard = config.extensions;
  if (publicDashboard && (config.port !== 0 || config.publicUrl))
    await registerDashboard(config.port);
  const address = await app.listen({ port: config.port, host: config.host });
  if (publicDashboard && config.port === 0 && !config.publicUrl)
    await registerDashboard(new URL(address).port === '' ? 80 : Number(new URL(address).port));
  console.log(
    JSON.stringify({
      listening: address,
      database: database.dialect,
      smtp_in: mail.smtpPort,
      mail_out: mail.deliversTo,
    }),
  );
}

function boundPort(app: { server: { address(): unknown } }): number | undefined {
  const address = app.server.address() as { port?: unknown } | null;
  return typeof address?.port === 'number' ? address.port : undefined;
}

async function main(argv: string[]): Promise<void> {
  const [first] = argv;
  if (first === 'serve') return serve();
  if (first === 'dashboard') {
    const { serveGateway } = await import('../gateway/serve.ts');
    return serveGateway();
  }
  const found = findCommand(argv);
  if (!found) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const result = await found.command(found.args, database, {
      stdin: readStdin,
      extensions: config.extensions,
      clock: systemClock,
    });
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message =
    error instanceof HttpError || error instanceof Error
      ? error instanceof z.ZodError
        ? z.prettifyError(error)
        : withCauses(error)
      : String(error);
  console.log(JSON.stringify({ is_error: true, message }));
  // Anything but a refused request is unexpected: its stack and causes go to stderr.
  if (!(error instanceof HttpError) && !(error instanceof z.ZodError)) console.error(error);
  process.exitCode = 1;
});
