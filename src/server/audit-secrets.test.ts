import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTrail } from './audit/audit-trail.ts';
import { recordAudit } from './audit/record.ts';
import { hashKey } from './auth/keys.ts';
import { runCommand } from './cli-commands.ts';
import {
  createPerson,
  obtainTokens,
  refreshWith,
  registerClient,
  tokensOf,
  api,
} from './oauth/oauth-test-support.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';

/**
 * SECURITY.md 49: the audit log never holds a secret's value. Each secret is written through the
 * API (and the command line), used, and then every column of every entry is searched for it and
 * for its stored hash: passwords and their hashes, `archive_password` and its hash, API keys and
 * their hashes, OAuth access and refresh tokens, client secrets.
 */
describeEachDialect('no secret in the audit log', (dialect) => {
  let server: TestServer;
  const secrets: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function ok(
    method: string,
    url: string,
    form: Record<string, unknown>,
    key = server.accountKey,
  ) {
    const answer = await server.request(method, url, { key, form });
    expect(answer.status, answer.body).toBe(200);
    return answer.json as Record<string, unknown>;
  }
  /** Every entry, every column, as one text. */
  async function wholeLog(): Promise<string> {
    return JSON.stringify(
      await server.database.db.selectFrom('audit_entries').selectAll().execute(),
    );
  }

  it('records that each secret was set, and never its value or its hash', async () => {
    // Passwords, through users.create and users.update.
    const person = await ok('POST', '/api/2/users/', {
      username: 'keeper@example.org',
      password: 'first secret password 1',
    });
    await ok('PUT', `/api/2/users/${String(person.id)}/`, { password: 'second secret password 2' });
    secrets.push('first secret password 1', 'second secret password 2');
    // archive_password, through lists.create and lists.update.
    await ok('POST', '/api/2/lists/', { name: 'vault', archive_password: 'archive secret one' });
    await ok('PUT', '/api/2/lists/vault/', {
      archive_password: 'archive secret two',
      description: 'Kept',
    });
    secrets.push('archive secret one', 'archive secret two');
    // An API key, retrieved, then used for a write.
    const entry = await ok('POST', '/api/2/users/', {
      description: 'Integration',
      permissions: ['list'],
    });
    const { key } = (await ok('PUT', `/api/2/users/${String(entry.id)}/`, { get_key: true })) as {
      key: string;
    };
    await ok('POST', '/api/2/lists/', { name: 'by-key' }, key);
    secrets.push(key, hashKey(key));
    // OAuth: a client's secret, a grant's access and refresh tokens, refreshed, the new token used.
    const client = await registerClient(server);
    const { username } = await createPerson(server);
    const tokens = await obtainTokens(server, { client, username });
    expect(
      (await api(server, 'POST', '/api/2/lists/', tokens.access_token, { name: 'by-token' }))
        .status,
    ).toBe(200);
    const refreshed = tokensOf(await refreshWith(server, client, tokens.refresh_token));
    expect(
      (await api(server, 'PUT', '/api/2/lists/by-token/', refreshed.access_token, { notes: 'n' }))
        .status,
    ).toBe(200);
    secrets.push(
      client.client_secret ?? '',
      tokens.access_token,
      tokens.refresh_token,
      refreshed.access_token,
      refreshed.refresh_token,
    );
    // The command line: a key, a password on stdin, a client secret.
    const input = {
      stdin: async () => 'stdin secret password 3\n',
      extensions: true,
      clock: server.clock,
    };
    const cliKey = (await runCommand(
      ['key', 'create', '--account', server.account.name],
      server.database,
      input,
    )) as { key: string };
    await runCommand(
      ['user', 'create', '--account', server.account.name, '--username', 'cli@example.org'],
      server.database,
      input,
    );
    const cliClient = (await runCommand(
      [
        'oauth-client',
        'create',
        '--name',
        'Secretive',
        '--redirect-uri',
        'https://secretive.example/cb',
      ],
      server.database,
      input,
    )) as { client_secret: string };
    secrets.push(
      cliKey.key,
      hashKey(cliKey.key),
      'stdin secret password 3',
      cliClient.client_secret,
    );

    // What the database keeps of them: every hash.
    const db = server.database.db;
    const hashes = [
      ...(await db.selectFrom('administrators').select('password_hash as hash').execute()),
      ...(await db.selectFrom('lists').select('archive_password_hash as hash').execute()),
      ...(await db.selectFrom('api_keys').select('key_hash as hash').execute()),
      ...(await db.selectFrom('oauth_clients').select('secret_hash as hash').execute()),
      ...(await db.selectFrom('oauth_access_tokens').select('token_hash as hash').execute()),
      ...(await db.selectFrom('oauth_refresh_tokens').select('token_hash as hash').execute()),
    ]
      .map((row) => row.hash)
      .filter((hash): hash is string => typeof hash === 'string' && hash.length > 0);
    expect(hashes.length).toBeGreaterThan(8);

    const log = await wholeLog();
    for (const value of [...secrets, ...hashes]) {
      expect(value.length).toBeGreaterThan(8);
      expect(log, `a secret in the log: ${value.slice(0, 6)}…`).not.toContain(value);
    }
    // What is there instead: that each was set.
    const changes = (
      await db.selectFrom('audit_entries').select(['operation', 'changes']).execute()
    ).map((row) => `${row.operation} ${row.changes}`);
    for (const [operation, field] of [
      ['users.create', 'password'],
      ['users.update', 'password'],
      ['lists.create', 'archive_password'],
      ['lists.update', 'archive_password'],
      ['users.retrieveKey', 'key'],
      ['oauth-clients.create', 'client_secret'],
    ])
      expect(
        changes.some(
          (line) =>
            line.startsWith(`${operation} `) &&
            line.includes(`{"field":"${field}","secret":true,"new":true}`),
        ),
        `${operation} ${field}`,
      ).toBe(true);
  });

  it('keeps out a secret an entry would carry: the filter every entry passes on its way in', async () => {
    await server.database.db.transaction().execute(async (trx) => {
      openTrail(trx, {});
      await recordAudit(trx, server.clock.now(), [
        {
          accountId: server.account.id,
          operation: 'test.careless',
          object: { type: 'list', id: null },
          changes: [
            { field: 'password', old: 'careless old password', new: 'careless new password' },
            { field: 'description', old: 'a', new: 'b' },
          ],
          details: {
            client_secret: 'careless client secret',
            nested: { token: 'careless token value' },
            kept: 'visible',
          },
        },
      ]);
    });
    const row = await server.database.db
      .selectFrom('audit_entries')
      .select(['changes', 'details'])
      .where('operation', '=', 'test.careless')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.changes)).toEqual([
      { field: 'password', secret: true, new: true },
      { field: 'description', old: 'a', new: 'b' },
    ]);
    expect(JSON.parse(row.details)).toEqual({ nested: {}, kept: 'visible' });
    expect(`${row.changes}${row.details}`).not.toContain('careless');
  });
});
