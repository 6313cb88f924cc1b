import { parseArgs } from 'node:util';
import * as z from 'zod';
import {
  EXPIRY_MONTHS,
  PASSWORD_MIN_LENGTH,
  PERMISSIONS,
  type Permission,
} from '../api/constants.ts';
import { AccountName, Cidr, EmailAddress } from '../api/primitives.ts';
import type { DatabaseHandle } from './db/database.ts';
import { HttpError } from './http/http-error.ts';
import { createdRecord, recordCli, withCliRecord } from './audit/cli-records.ts';
import {
  createClient,
  registerGatewayClient,
  type CreatedClient,
} from './oauth/clients.service.ts';
import { findAccountByName } from './repositories/accounts.repository.ts';
import type { Clock } from './lib/clock.ts';
import { createCustomField } from './services/custom-fields.service.ts';
import {
  createAccount,
  createApiKeyAdministrator,
  createUser,
} from './services/provisioning.service.ts';

/**
 * The `listkeeper` commands that change the database (everything but `serve` and `dashboard`),
 * apart from the process that runs them: `cli.ts` reads argv and prints, and the e2e fixtures run
 * the same code in their own process (a process per call cost them a second of CPU each).
 */
/** What a command may read besides its arguments: standard input, the server's EXTENSIONS switch and clock. */
export interface CommandInput {
  stdin: () => Promise<string>;
  extensions: boolean;
  clock: Clock;
}

type Command = (args: string[], database: DatabaseHandle, input: CommandInput) => Promise<unknown>;

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
function option<T>(name: string, schema: z.core.$ZodType<T>, value: unknown): T {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return parsed.data;
  const problem = parsed.error.issues[0]?.message ?? 'is invalid';
  throw new HttpError(400, `${name}: ${value === undefined ? 'is required' : problem}`);
}

/** An OAuth client as the audit log records it: never its secret, only that one was issued. */
function clientRecord(operation: string, client: CreatedClient) {
  return createdRecord(
    null,
    operation,
    { type: 'oauth_client', id: client.client_id },
    { name: client.name, redirect_uris: client.redirect_uris, public: client.public },
    client.client_secret === undefined ? [] : ['client_secret'],
  );
}

/** No --permission at all means a superadmin key (issue #3); a global one may also manage accounts. */
function permissionsFrom(values: string[] | undefined, global: boolean): Permission[] {
  if (!values || values.length === 0) return global ? ['superadmin', 'account'] : ['superadmin'];
  return option('--permission', Permissions, values);
}

const commands: Record<string, Command> = {
  'oauth-client create': async (args, database, input) => {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        public: { type: 'boolean' },
      },
    });
    if (values.public && !input.extensions)
      throw new HttpError(
        400,
        '--public: EXTENSIONS=off accepts confidential clients only (spec §5.2 rule 4)',
      );
    return createClient(
      database.db,
      {
        name: values.name ?? '',
        redirectUris: values['redirect-uri'] ?? [],
        isPublic: Boolean(values.public),
      },
      (trx, client) =>
        recordCli(trx, input.clock.now(), [clientRecord('oauth-clients.create', client)]),
    );
  },
  // `npm start`'s gateway: a first-party confidential client, re-keyed at every call.
  'oauth-client gateway': async (args, database, input) => {
    const { values } = parseArgs({ args, options: { 'redirect-uri': { type: 'string' } } });
    return registerGatewayClient(database.db, values['redirect-uri'] ?? '', (trx, client) =>
      recordCli(trx, input.clock.now(), [clientRecord('oauth-clients.gateway', client)]),
    );
  },
  'account create': async (args, database, input) => {
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
    const account = await withCliRecord(
      database.db,
      input.clock.now(),
      (db) =>
        createAccount(db, {
          name,
          maxContacts,
          ccid: values.ccid,
          description: values.description,
          now: input.clock.now(),
        }),
      (row) => [
        createdRecord(
          null,
          'accounts.create',
          { type: 'account', id: row.id },
          {
            name: row.name,
            description: row.description,
            max_contacts: row.max_contacts,
            ccid: row.ccid === 1,
          },
        ),
      ],
    );
    return {
      id: account.id,
      name: account.name,
      max_contacts: account.max_contacts,
      ccid: account.ccid === 1,
    };
  },
  'key create': async (args, database, input) => {
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
    const created = await withCliRecord(
      database.db,
      input.clock.now(),
      (db) =>
        createApiKeyAdministrator(db, {
          accountId,
          permissions: permissionsFrom(values.permission, accountId === null),
          cidr: values.cidr === undefined ? null : option('--cidr', Cidr, values.cidr),
          description: values.description,
          expiryMonths,
          now: input.clock.now(),
        }),
      ({ administrator, expires_at }) => [
        createdRecord(
          accountId,
          'users.create',
          { type: 'administrator', id: administrator.id },
          {
            description: administrator.description,
            permissions: JSON.parse(administrator.permissions) as unknown,
            cidr: administrator.cidr,
            key_expiry: expires_at,
          },
          ['key'],
        ),
      ],
    );
    // `expiry` as in the API's key retrieval (spec §4.6).
    return {
      key: created.key,
      id: created.administrator.id,
      account_id: accountId,
      expiry: created.expires_at,
    };
  },
  'user create': async (args, database, input) => {
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
    const password = (await input.stdin()).replace(/\r?\n$/, '');
    if (password.length < PASSWORD_MIN_LENGTH)
      throw new HttpError(400, `The password (on stdin) needs at least ${PASSWORD_MIN_LENGTH} characters`);
    const username = option('--username', EmailAddress, values.username);
    const user = await withCliRecord(
      database.db,
      input.clock.now(),
      (db) =>
        createUser(db, {
          accountId,
          username,
          password,
          permissions: permissionsFrom(values.permission, accountId === null),
          now: input.clock.now(),
        }),
      (row) => [
        createdRecord(
          accountId,
          'users.create',
          { type: 'administrator', id: row.id },
          { username: row.username, permissions: JSON.parse(row.permissions) as unknown },
          ['password'],
        ),
      ],
    );
    return { id: user.id, username: user.username, account_id: accountId };
  },
  'field create': async (args, database, input) => {
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
    const name = values.name;
    const field = await withCliRecord(
      database.db,
      input.clock.now(),
      (db) => createCustomField(db, { accountId, name, identifier: values.identifier }),
      (created) => [
        createdRecord(
          accountId,
          'fields.create',
          { type: 'custom_field', id: created.id },
          {
            name: created.name,
            identifier: created.identifier,
          },
        ),
      ],
    );
    return { ...field, account_id: accountId };
  },
};

const demoCommand: Command = async (args, database, input) => {
  const { runDemo } = await import('./demo/demo.ts');
  const result = await runDemo(args, database);
  // Its own transactions are the demo's (demo/demo.ts); the entry follows them: the demo's data
  // is made again by running it again, so an entry lost to a kill in between loses nothing real.
  await withCliRecord(
    database.db,
    input.clock.now(),
    async () => result,
    (demo) => [
      {
        accountId: null,
        operation: 'demo.load',
        object: { type: 'account', id: demo.account_ids[demo.account] ?? null },
        details: { accounts: Object.keys(demo.account_ids) },
      },
    ],
  );
  return result;
};

/** `argv`'s command, or undefined when there is no such command. */
export function findCommand(
  argv: readonly string[],
): { command: Command; args: string[] } | undefined {
  const [first, second, ...rest] = argv;
  if (first === 'demo') return { command: demoCommand, args: argv.slice(1) };
  const command = commands[`${first ?? ''} ${second ?? ''}`];
  return command && { command, args: rest };
}

/** Runs `argv` (e.g. `['key', 'create', '--global']`) on `database`; what it answers is the CLI's JSON. */
export async function runCommand(
  argv: readonly string[],
  database: DatabaseHandle,
  input: CommandInput,
): Promise<unknown> {
  const found = findCommand(argv);
  if (!found) throw new HttpError(400, `No command ${argv.slice(0, 2).join(' ')}`);
  return found.command(found.args, database, input);
}
