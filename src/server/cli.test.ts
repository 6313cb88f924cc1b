import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AUTHENTICATION_FAILED } from '../api/constants.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { verifyPassword } from './auth/keys.ts';
import { findAdministratorByUsername } from './repositories/users.repository.ts';
import { useCliDataDir, type CliResult } from './test/cli-runner.ts';

/**
 * Issue #3 item 6: the provisioning commands a newcomer runs, each printing JSON, and the keys they
 * print working (or not) against a server on the same database. `field create` is tested beside
 * the custom fields, `demo` in demo.test.ts.
 */
describe('the listkeeper command', () => {
  const { cli, dataDir: folder } = useCliDataDir();

  /** A server on the CLI's database, for as long as `use` runs. */
  async function withServer(use: (app: FastifyInstance) => Promise<void>): Promise<void> {
    const dataDir = folder();
    const database: DatabaseHandle = await openDatabase({ dataDir });
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      STATIC_DIR: path.join(dataDir, 'no-dashboard'),
    });
    const app = await buildApp({ config, database });
    try {
      await use(app);
    } finally {
      await app.close();
      await database.close();
    }
  }

  function expectRefused(result: CliResult, message: RegExp): void {
    expect(result.code, JSON.stringify(result.json)).toBe(1);
    expect(result.json).toEqual({
      is_error: true,
      message: expect.stringMatching(message) as unknown,
    });
  }

  async function status(
    app: FastifyInstance,
    url: string,
    key: string,
    remoteAddress = '127.0.0.1',
  ): Promise<number> {
    return (
      await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${key}` },
        remoteAddress,
      })
    ).statusCode;
  }

  it('creates an account with its plan and ccid, and refuses a duplicate or a bad name', async () => {
    const created = await cli(['account', 'create', 'shop', '--max-contacts', '500', '--ccid']);
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      id: expect.any(Number) as unknown,
      name: 'shop',
      max_contacts: 500,
      ccid: true,
    });
    const plain = await cli(['account', 'create', 'plain']);
    expect(plain.json).toMatchObject({
      name: 'plain',
      ccid: false,
      max_contacts: expect.any(Number) as unknown,
    });
    expectRefused(await cli(['account', 'create', 'shop']), /already exists/);
    expectRefused(await cli(['account', 'create', 'no spaces allowed']), /^NAME: /);
    expectRefused(await cli(['account', 'create']), /^NAME: is required$/);
    expectRefused(
      await cli(['account', 'create', 'cheap', '--max-contacts', '0']),
      /^--max-contacts: /,
    );
  }, 60_000);

  it('creates account keys whose permissions, cidr and expiry the server enforces', async () => {
    const limited = await cli([
      'key',
      'create',
      '--account',
      'shop',
      '--permission',
      'contact',
      '--cidr',
      '10.0.0.0/8',
      '--expiry-months',
      '3',
      '--description',
      'sync job',
    ]);
    expect(limited.code, JSON.stringify(limited.json)).toBe(0);
    const { key, expiry: expiresAt } = limited.json as { key: string; expiry: string };
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const months = (Date.parse(expiresAt) - Date.now()) / (30.44 * 24 * 3600 * 1000);
    expect(months).toBeGreaterThan(2.9);
    expect(months).toBeLessThan(3.1);
    const superadmin = (await cli(['key', 'create', '--account', 'shop'])).json as { key: string };
    const global = (await cli(['key', 'create', '--global'])).json as {
      key: string;
      account_id: null;
    };
    expect(global.account_id).toBeNull();

    await withServer(async (app) => {
      expect(await status(app, '/api/2/contacts/', key, '10.1.2.3')).toBe(200);
      expect(await status(app, '/api/2/messages/', key, '10.1.2.3')).toBe(403);
      expect(await status(app, '/api/2/contacts/', key, '192.168.1.1')).toBe(401);
      expect(await status(app, '/api/2/lists/', superadmin.key)).toBe(200);
      expect(await status(app, '/api/2/accounts/', superadmin.key)).toBe(403);
      expect(await status(app, '/api/2/accounts/', global.key)).toBe(200);
      const unknown = await app.inject({
        method: 'GET',
        url: '/api/2/lists/',
        headers: { authorization: `Bearer ${key}x` },
      });
      expect(unknown.json()).toEqual({ is_error: true, message: AUTHENTICATION_FAILED });
    });
  }, 60_000);

  it('refuses a key without exactly one owner, for an unknown account, or with an expiry the spec lacks', async () => {
    expectRefused(await cli(['key', 'create']), /exactly one of --global or --account/);
    expectRefused(
      await cli(['key', 'create', '--global', '--account', 'shop']),
      /exactly one of --global or --account/,
    );
    expectRefused(await cli(['key', 'create', '--account', 'nowhere']), /No account named nowhere/);
    expectRefused(
      await cli(['key', 'create', '--account', 'shop', '--expiry-months', '2']),
      /^--expiry-months: must be one of 1, 3, 6, 12$/,
    );
    expectRefused(
      await cli(['key', 'create', '--account', 'shop', '--permission', 'root']),
      /^--permission: /,
    );
    expectRefused(
      await cli(['key', 'create', '--account', 'shop', '--cidr', '10.0.0.0/99']),
      /^--cidr: /,
    );
  }, 60_000);

  it('creates a user with the password read from stdin, stored hashed; usernames are unique in any case', async () => {
    const password = 'correct horse battery';
    const created = await cli(
      [
        'user',
        'create',
        '--account',
        'shop',
        '--username',
        'ada@shop.example',
        '--permission',
        'list',
      ],
      `${password}\n`,
    );
    expect(created.code, JSON.stringify(created.json)).toBe(0);
    expect(created.json).toEqual({
      id: expect.any(Number) as unknown,
      username: 'ada@shop.example',
      account_id: expect.any(Number) as unknown,
    });
    expect(JSON.stringify(created.json)).not.toContain(password);

    const database = await openDatabase({ dataDir: folder() });
    try {
      const accountId = (created.json as { account_id: number }).account_id;
      const stored = await findAdministratorByUsername(database.db, accountId, 'ada@shop.example');
      expect(stored?.password_hash).toMatch(/^scrypt\$/);
      expect(await verifyPassword(password, stored?.password_hash ?? '')).toBe(true);
    } finally {
      await database.close();
    }

    expectRefused(
      await cli(
        ['user', 'create', '--account', 'shop', '--username', 'ADA@shop.example'],
        `${password}\n`,
      ),
      /already exists/,
    );
    expectRefused(
      await cli(
        ['user', 'create', '--account', 'shop', '--username', 'bob@shop.example'],
        'short\n',
      ),
      /at least 12 characters/,
    );
    expectRefused(
      await cli(
        ['user', 'create', '--account', 'shop', '--username', 'not-an-address'],
        `${password}\n`,
      ),
      /./,
    );
  }, 60_000);

  it('prints its usage and exits 2 for an unknown command', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: listkeeper <command>');
  }, 60_000);
});
