import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXTENSION_FIELDS,
  extensionFieldsOf,
  isExtension,
  type OperationName,
} from '../../api/operations.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import {
  Browser,
  basicAuth,
  createPerson,
  obtainCode,
  pkcePair,
  redeem,
  refreshWith,
  registerClient,
  requestParams,
  authorizeUrl,
  send,
  tokensOf,
} from '../oauth/oauth-test-support.ts';
import { OAUTH_PAGE_PATHS as PATHS } from '../oauth/paths.ts';
import { missingOperations } from '../routes/register-routes.ts';
import { useCliDataDir } from './cli-runner.ts';
import {
  OPERATION_NAMES,
  callOperation,
  isErrorShape,
  prepareCall,
  seedAccount,
  urlOf,
  type AccountSeed,
} from './fixtures.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './harness.ts';

/**
 * Issue 15: `EXTENSIONS=off` offers exactly spec v2 (http/spec-only.ts): every extension is absent
 * (its route the spec's 404, its field neither answered nor accepted, its header not sent, no CORS,
 * no /config.json, public OAuth clients refused) while every spec operation still works; with
 * `EXTENSIONS=on` (the default) each extension is there.
 */

const EXTENSION_OPERATIONS = OPERATION_NAMES.filter(isExtension);
const SPEC_OPERATIONS = OPERATION_NAMES.filter((name) => !isExtension(name));
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const CLIENT_ORIGIN = 'https://client.example';

const headerNames = (response: TestResponse) =>
  Object.keys(response.headers).map((h) => h.toLowerCase());
const corsHeaders = (response: TestResponse | { headers: TestResponse['headers'] }) =>
  Object.keys(response.headers).filter((h) => h.toLowerCase().startsWith('access-control-'));

/** Every object of an answer: the object, an array's items, a page's or an envelope's `data`. */
function objectsOf(json: unknown): Record<string, unknown>[] {
  if (Array.isArray(json)) return json as Record<string, unknown>[];
  if (json && typeof json === 'object') {
    const data = (json as { data?: unknown }).data;
    return Array.isArray(data)
      ? (data as Record<string, unknown>[])
      : [json as Record<string, unknown>];
  }
  return [];
}

/** A valid call of `name` on the seed's account (group-wide ones with the global key alone). */
async function callValid(
  server: TestServer,
  seed: AccountSeed,
  name: OperationName,
): Promise<TestResponse> {
  const { pathId, form, query } = await prepareCall(server, name, seed, true);
  const accountId = ROUTE_PERMISSIONS[name].global ? undefined : seed.accountId;
  return callOperation(server, name, { key: server.globalKey, accountId, pathId, form, query });
}

describeEachDialect('EXTENSIONS=off: exactly spec v2 (issue 15)', (dialect) => {
  let server: TestServer;
  let seed: AccountSeed;

  beforeAll(async () => {
    server = await startTestServer(dialect, { extensions: false });
    seed = await seedAccount(server, server.account.id, server.account.name);
  });
  afterAll(() => server.close());

  it('registers every spec operation and no extension operation', () => {
    expect(missingOperations(server.app).sort()).toEqual([...EXTENSION_OPERATIONS].sort());
  });

  for (const name of EXTENSION_OPERATIONS) {
    it(`${name}: the spec's 404, as for any request that does not exist`, async () => {
      const response = await callValid(server, seed, name);
      expect(response.status, response.body).toBe(404);
      expect(response.json).toEqual({ is_error: true, message: 'The API request does not exist' });
    });
  }

  for (const name of SPEC_OPERATIONS) {
    it(`${name}: works, with no extension field or header in the answer`, async () => {
      const response = await callValid(server, seed, name);
      expect(response.status, response.body).toBeGreaterThanOrEqual(200);
      expect(response.status, response.body).toBeLessThan(300);
      // The harness validates every answer against the contract (validateResponses).
      for (const object of objectsOf(response.json)) {
        for (const field of extensionFieldsOf(name))
          expect(object, `${name}: ${field}`).not.toHaveProperty(field);
      }
      for (const header of RATE_HEADERS) expect(headerNames(response), name).not.toContain(header);
      expect(corsHeaders(response), name).toEqual([]);
    });
  }

  it('answers no key_expiry, though the key administrators have keys', async () => {
    const response = await server.request('GET', urlOf('users.list'));
    expect(response.status, response.body).toBe(200);
    const users = objectsOf(response.json);
    expect(users.some((user) => user.api === 2)).toBe(true);
    for (const user of users) expect(user).not.toHaveProperty('key_expiry');
  });

  it('answers no max_contacts or ccid on an account, and ignores them on create and update like any unknown field', async () => {
    const got = await server.request('GET', urlOf('accounts.get', String(server.account.id)), {
      key: server.globalKey,
    });
    expect(got.status, got.body).toBe(200);
    expect(got.json).not.toHaveProperty('max_contacts');
    expect(got.json).not.toHaveProperty('ccid');
    const before = await server.database.db
      .selectFrom('accounts')
      .select(['max_contacts', 'ccid'])
      .where('id', '=', server.account.id)
      .executeTakeFirstOrThrow();
    for (const fields of [
      { max_contacts: 500 },
      { ccid: true },
      { max_contacts: 500, ccid: false },
    ]) {
      const name = `plan-${Object.keys(fields).length}-${Date.now()}`;
      const created = await server.request('POST', urlOf('accounts.create'), {
        key: server.globalKey,
        form: { name, ...fields },
      });
      expect(created.status, created.body).toBe(200);
      // SECURITY.md 17: ignored, never stored, and named for the developer.
      expect(created.headers['x-ignored-fields']).toBe(Object.keys(fields).join(', '));
      expect(created.json).not.toHaveProperty('max_contacts');
      const updated = await server.request(
        'PUT',
        urlOf('accounts.update', String(server.account.id)),
        {
          key: server.globalKey,
          form: fields,
        },
      );
      expect(updated.status, updated.body).toBe(200);
      expect(updated.headers['x-ignored-fields']).toBe(Object.keys(fields).join(', '));
    }
    const after = await server.database.db
      .selectFrom('accounts')
      .select(['max_contacts', 'ccid'])
      .where('id', '=', server.account.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  // Spec §4.7 is the group's, with global keys (§4.8); an account's own principal reaching its
  // own account is an extension (api/operations.ts OWN_ACCOUNT).
  it('keeps accounts to global keys: an account’s superadmin key is refused on its own account too', async () => {
    const own = urlOf('accounts.get', String(server.account.id));
    for (const [method, form] of [['GET', undefined], ['PUT', { timezone: 'UTC' }]] as const) {
      const response = await server.request(method, own, form ? { form } : {});
      expect([response.status, response.json], method).toEqual([
        403,
        { is_error: true, message: 'Accounts are managed with a global key' },
      ]);
    }
  });

  it('refuses the `list` query extension of GET /contacts/ as an unknown parameter (400)', async () => {
    const refused = await server.request('GET', urlOf('contacts.list'), {
      query: { list: 'club' },
    });
    expect(refused.status, refused.body).toBe(400);
    expect(isErrorShape(refused.json), refused.body).toBe(true);
    const plain = await server.request('GET', urlOf('contacts.list'), { query: { limit: 1 } });
    expect(plain.status, plain.body).toBe(200);
  });

  it('refuses the `contacts=count` query extension of the lists as an unknown parameter (400)', async () => {
    for (const url of [urlOf('lists.list'), urlOf('lists.get', seed.list)]) {
      const refused = await server.request('GET', url, { query: { contacts: 'count' } });
      expect(refused.status, refused.body).toBe(400);
      expect(isErrorShape(refused.json), refused.body).toBe(true);
      const plain = await server.request('GET', url);
      expect(plain.status, plain.body).toBe(200);
      expect(plain.body).not.toContain('contacts_count');
    }
    const update = urlOf('lists.update', seed.list);
    const refused = await server.request('PUT', update, { query: { contacts: 'count' }, form: { notes: 'counted' } });
    expect(refused.status, refused.body).toBe(400);
    const plain = await server.request('PUT', update, { form: { notes: 'plain' } });
    expect(plain.status, plain.body).toBe(200);
    expect(plain.json).toMatchObject({ notes: 'plain' });
    expect(plain.body).not.toContain('contacts_count');
  });

  it('marks each extension field on the operations that answer objects carrying it', () => {
    const marked = new Set(OPERATION_NAMES.flatMap((name) => extensionFieldsOf(name)));
    expect([...marked].sort()).toEqual(Object.keys(EXTENSION_FIELDS).sort());
  });

  it('answers a 429 with Retry-After only, no X-RateLimit-* header', async () => {
    // An address book of 1: an allowance of 3 objects per window.
    const account = await server.createAccount(`tiny${Date.now()}`, { maxContacts: 1 });
    const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    let response = await server.request('GET', urlOf('lists.list'), { key });
    for (let i = 0; i < 5 && response.status !== 429; i += 1) {
      response = await server.request('POST', urlOf('lists.create'), {
        key,
        form: { name: `l${i}` },
      });
    }
    expect(response.status, response.body).toBe(429);
    expect(isErrorShape(response.json), response.body).toBe(true);
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    for (const header of RATE_HEADERS) expect(headerNames(response)).not.toContain(header);
  });

  it('has no /config.json and no OAuth metadata', async () => {
    const config = await send(server, 'GET', PATHS.dashboardConfig);
    expect(config.status).toBe(404);
    const metadata = await send(server, 'GET', PATHS.metadata);
    expect(metadata.status).toBe(404);
  });

  it('answers no CORS on the token and refresh endpoints, even to a registered client origin', async () => {
    const client = await registerClient(server);
    for (const path of [PATHS.token, PATHS.refresh]) {
      const preflight = await send(server, 'OPTIONS', path, {
        headers: { origin: CLIENT_ORIGIN, 'access-control-request-method': 'POST' },
      });
      expect(corsHeaders(preflight), path).toEqual([]);
      expect(preflight.status, path).toBe(404);
      const posted = await send(server, 'POST', path, {
        headers: { origin: CLIENT_ORIGIN },
        form: {
          grant_type: 'refresh_token',
          refresh_token: 'nope',
          client_id: client.client_id,
          client_secret: client.client_secret ?? '',
        },
      });
      expect(posted.status, path).toBe(400);
      expect(corsHeaders(posted), path).toEqual([]);
    }
  });

  it('refuses a public client at the authorization endpoint, with an error page rather than a redirect', async () => {
    const client = await registerClient(server, { isPublic: true });
    const answer = await send(
      server,
      'GET',
      authorizeUrl(requestParams(client, { challenge: pkcePair().challenge })),
    );
    expect(answer.status).toBe(400);
    expect(answer.location).toBeUndefined();
    expect(answer.body).toContain('confidential clients only');
  });

  it('refuses a token request without the client secret (invalid_client, 401)', async () => {
    const publicClient = await registerClient(server, { isPublic: true });
    const confidential = await registerClient(server);
    for (const client_id of [publicClient.client_id, confidential.client_id]) {
      for (const path of [PATHS.token, PATHS.refresh]) {
        const answer = await send(server, 'POST', path, {
          form: { grant_type: 'refresh_token', refresh_token: 'whatever', client_id },
        });
        expect(answer.status, `${path} ${client_id}`).toBe(401);
        expect(answer.json).toMatchObject({ error: 'invalid_client' });
      }
    }
  });

  it('signs in a confidential client (code, refresh) whose token works on the API; sign-out with the token does not exist', async () => {
    const client = await registerClient(server);
    const person = await createPerson(server);
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username: person.username, challenge });
    const tokens = tokensOf(await redeem(server, client, code, { code_verifier: verifier }));
    const lists = await server.request('GET', urlOf('lists.list'), { key: tokens.access_token });
    expect(lists.status, lists.body).toBe(200);

    // HTTP Basic works as well as the form fields.
    const refreshed = await send(server, 'POST', PATHS.refresh, {
      headers: { authorization: basicAuth(client.client_id, client.client_secret ?? '') },
      form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
    });
    const next = tokensOf(refreshed);
    expect(
      tokensOf(await refreshWith(server, client, next.refresh_token)).access_token,
    ).toBeTruthy();

    const logout = await send(server, 'POST', PATHS.logout, {
      headers: { authorization: `Bearer ${next.access_token}` },
    });
    expect(logout.status, logout.body).toBe(404);
    expect(isErrorShape(logout.json), logout.body).toBe(true);
  });

  it('keeps the sign-out page a person uses in the browser', async () => {
    const page = await send(server, 'GET', PATHS.logout, { browser: new Browser() });
    expect(page.status).toBe(200);
  });
});

describeEachDialect('EXTENSIONS=on (the default): every extension is there', (dialect) => {
  let server: TestServer;
  let seed: AccountSeed;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seed = await seedAccount(server, server.account.id, server.account.name);
  });
  afterAll(() => server.close());

  it('registers every operation, extensions included', () => {
    expect(missingOperations(server.app)).toEqual([]);
  });

  for (const name of EXTENSION_OPERATIONS) {
    it(`${name}: answers`, async () => {
      const response = await callValid(server, seed, name);
      expect(response.status, response.body).toBe(200);
    });
  }

  it('answers key_expiry, max_contacts and ccid, and accepts the plan fields on write', async () => {
    const users = objectsOf((await server.request('GET', urlOf('users.list'))).json);
    expect(users.some((user) => 'key_expiry' in user)).toBe(true);
    const account = await server.request('GET', urlOf('accounts.get', String(server.account.id)), {
      key: server.globalKey,
    });
    expect(account.json).toMatchObject({
      max_contacts: expect.any(Number) as unknown,
      ccid: expect.any(Boolean) as unknown,
    });
    const updated = await server.request(
      'PUT',
      urlOf('accounts.update', String(server.account.id)),
      {
        key: server.globalKey,
        form: { max_contacts: 200_000, ccid: false },
      },
    );
    expect(updated.status, updated.body).toBe(200);
    expect(updated.json).toMatchObject({ max_contacts: 200_000, ccid: false });
  });

  it('sends the X-RateLimit-* headers', async () => {
    const response = await server.request('GET', urlOf('lists.list'));
    for (const header of RATE_HEADERS) expect(headerNames(response)).toContain(header);
  });

  it('publishes /config.json and the OAuth metadata', async () => {
    expect((await send(server, 'GET', PATHS.dashboardConfig)).status).toBe(200);
    expect((await send(server, 'GET', PATHS.metadata)).status).toBe(200);
  });

  it('answers CORS on the token endpoint to a registered client origin', async () => {
    await registerClient(server);
    const preflight = await send(server, 'OPTIONS', PATHS.token, {
      headers: { origin: CLIENT_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(CLIENT_ORIGIN);
  });

  it('accepts a public client with PKCE, and signs out with an access token', async () => {
    const client = await registerClient(server, { isPublic: true });
    const person = await createPerson(server);
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username: person.username, challenge });
    const tokens = tokensOf(await redeem(server, client, code, { code_verifier: verifier }));
    const logout = await send(server, 'POST', PATHS.logout, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(logout.status, logout.body).toBe(200);
  });
});

describe('EXTENSIONS in the command line', () => {
  const { cli } = useCliDataDir();

  it('refuses to create a public OAuth client with EXTENSIONS=off, and creates it with the default', async () => {
    const args = [
      'oauth-client',
      'create',
      '--name',
      'App',
      '--redirect-uri',
      'http://127.0.0.1:9/cb',
      '--public',
    ];
    const off = await cli(args, '', { EXTENSIONS: 'off' });
    expect(off.code).toBe(1);
    expect(off.json).toMatchObject({
      is_error: true,
      message: expect.stringContaining('confidential') as unknown,
    });
    const on = await cli(args);
    expect(on.code, on.stderr).toBe(0);
    expect(on.json).toMatchObject({ public: true });
  });

  it('refuses an EXTENSIONS value other than on or off', async () => {
    const result = await cli(['account', 'create', 'x'], '', { EXTENSIONS: 'maybe' });
    expect(result.code).toBe(1);
    expect(result.json?.message).toContain('EXTENSIONS');
  });
});
