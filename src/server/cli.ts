#!/usr/bin/env node
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { EXPIRY_MONTHS, PERMISSIONS, type Permission } from '../api/constants.ts';
import { AccountName, Cidr, EmailAddress } from '../api/primitives.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { HttpError } from './http/http-error.ts';
import { withCauses } from './lib/error-chain.ts';
import {
  createClient,
  registerDashboardClient,
  registerGatewayClient,
} from './oauth/clients.service.ts';
import { issuerOf } from './oauth/metadata.ts';
import { findAccountByName } from './repositories/accounts.repository.ts';
import { createCustomField } from './services/custom-fields.service.ts';
import {
  createAccount,
  createApiKeyAdministrator,
  createUser,
} from './services/provisioning.service.ts';

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

type Command = (args: string[], database: DatabaseHandle) => Promise<unknown>;

const Permissions = z.array(z.enum(PERMISSIONS));

async function accountIdByName(
  database: DatabaseHandle,
  name: string | undefined,
): Promise<number> {
  if (!name) throw new HttpError(400, '--account NAME is required');
  const account = await findAccountByName(database.db, name);
  if (!account) throw new HttpError(404, `No account named ${name}`);
  return account.id;
}

/** A value given on the command line, or 400 naming the option it came from. */
function option<T>(name: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problem = parsed.error.issues[0]?.message ?? 'is invalid';
  throw new HttpError(400, `${name}: ${value === undefined ? 'is required' : problem}`);
}

/** No --permission at all means a superadmin key (issue #3); a global one may also manage accounts. */
function permissionsFrom(values: string[] | undefined, global: boolean): Permission[] {
  if (!values || values.length === 0) return global ? ['superadmin', 'account'] : ['superadmin'];
  return option('--permission', Permissions, values);
}

const commands: Record<string, Command> = {
  'oauth-client create': async (args, database) => {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        public: { type: 'boolean' },
      },
    });
    if (values.public && !loadConfig().extensions)
      throw new HttpError(
        400,
        '--public: EXTENSIONS=off accepts confidential clients only (spec §5.2 rule 4)',
      );
    return createClient(database.db, {
      name: values.name ?? '',
      redirectUris: values['redirect-uri'] ?? [],
      isPublic: Boolean(values.public),
    });
  },
  // `npm start`'s gateway: a first-party confidential client, re-keyed at every call.
  'oauth-client gateway': async (args, database) => {
    const { values } = parseArgs({ args, options: { 'redirect-uri': { type: 'string' } } });
    return registerGatewayClient(database.db, values['redirect-uri'] ?? '');
  },
  'account create': async (args, database) => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'max-contacts': { type: 'string' },
        ccid: { type: 'boolean' },
        description: { type: 'string' },
      },
    });
    const name = option('NAME', AccountName, positionals[0]);
    const maxContacts =
      values['max-contacts'] === undefined
        ? undefined
        : option('--max-contacts', z.coerce.number().int().positive(), values['max-contacts']);
    const account = await createAccount(database.db, {
      name,
      maxContacts,
      ccid: values.ccid,
      description: values.description,
    });
    return {
      id: account.id,
      name: account.name,
      max_contacts: account.max_contacts,
      ccid: account.ccid === 1,
    };
  },
  'key create': async (args, database) => {
    const { values } = parseArgs({
      args,
      options: {
        global: { type: 'boolean' },
        account: { type: 'string' },
        permission: { type: 'string', multiple: true },
        cidr: { type: 'string' },
        'expiry-months': { type: 'string' },
        description: { type: 'string' },
      },
    });
    if (Boolean(values.global) === Boolean(values.account))
      throw new HttpError(400, 'Give exactly one of --global or --account NAME');
    const accountId = values.global ? null : await accountIdByName(database, values.account);
    const expiryMonths =
      values['expiry-months'] === undefined
        ? undefined
        : option(
            '--expiry-months',
            z.union(
              EXPIRY_MONTHS.map((m) => z.literal(m)),
              { error: `must be one of ${EXPIRY_MONTHS.join(', ')}` },
            ),
            Number(values['expiry-months']),
          );
    const created = await createApiKeyAdministrator(database.db, {
      accountId,
      permissions: permissionsFrom(values.permission, accountId === null),
      cidr: values.cidr === undefined ? null : option('--cidr', Cidr, values.cidr),
      description: values.description,
      expiryMonths,
    });
    // `expiry` as in the API's key retrieval (spec §4.6).
    return {
      key: created.key,
      id: created.administrator.id,
      account_id: accountId,
      expiry: created.expires_at,
    };
  },
  'user create': async (args, database) => {
    const { values } = parseArgs({
      args,
      options: {
        account: { type: 'string' },
        global: { type: 'boolean' },
        username: { type: 'string' },
        permission: { type: 'string', multiple: true },
      },
    });
    const accountId = values.global ? null : await accountIdByName(database, values.account);
    const password = (await readStdin()).replace(/\r?\n$/, '');
    if (password.length < 12)
      throw new HttpError(400, 'The password (on stdin) needs at least 12 characters');
    const user = await createUser(database.db, {
      accountId,
      username: option('--username', EmailAddress, values.username),
      password,
      permissions: permissionsFrom(values.permission, accountId === null),
    });
    return { id: user.id, username: user.username, account_id: accountId };
  },
  'field create': async (args, database) => {
    const { values } = parseArgs({
      args,
      options: {
        account: { type: 'string' },
        name: { type: 'string' },
        identifier: { type: 'string' },
      },
    });
    const accountId = await accountIdByName(database, values.account);
    if (values.name === undefined) throw new HttpError(400, '--name N is required');
    const field = await createCustomField(database.db, {
      accountId,
      name: values.name,
      identifier: values.identifier,
    });
    return { ...field, account_id: accountId };
  },
};

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function serve(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const app = await buildApp({ config, database });
  // Errors of the mail worker are logged without their details' secrets (SECURITY.md 39): a
  // message only, never the transport's options.
  // Imported here: the other commands need none of the mail libraries (they take seconds to load).
  const { startMail } = await import('./mail/mail-service.ts');
  const mail = await startMail(config, database.db, {
    onError: (error) => app.log.error({ mail: error instanceof Error ? error.message : String(error) }, 'mail'),
  });
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


async function main(argv: string[]): Promise<void> {
  const [first, second, ...rest] = argv;
  if (first === 'serve') return serve();
  if (first === 'dashboard') {
    const { serveGateway } = await import('../gateway/serve.ts');
    return serveGateway();
  }
  const name = first === 'demo' ? 'demo' : `${first ?? ''} ${second ?? ''}`;
  const command = first === 'demo' ? demoCommand : commands[name];
  if (!command) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const result = await command(first === 'demo' ? argv.slice(1) : rest, database);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await database.close();
  }
}

const demoCommand: Command = async (args, database) => {
  const { runDemo } = await import('./demo/demo.ts');
  return runDemo(args, database);
};

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
