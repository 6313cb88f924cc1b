import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import type { CreatedClient } from './clients.service.ts';
import {
  Browser,
  api,
  authorizeUrl,
  createPerson,
  obtainTokens,
  refreshWith,
  registerClient,
  requestParams,
  send,
} from './oauth-test-support.ts';
import { OAUTH_PAGE_PATHS as PATHS } from './paths.ts';

/**
 * SECURITY.md 32 (issue 16 finding 4): changing a password, taking a permission away or deleting an
 * administrator ends the sign-ins, grants and tokens it should, at once.
 */
describeEachDialect('What a password change, a permission removal or a deletion ends', (dialect) => {
  let server: TestServer;
  let client: CreatedClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    client = await registerClient(server);
  });
  afterAll(() => server.close());

  /** Whether the browser's sign-in still skips the password (authorize goes straight to consent). */
  async function signedIn(browser: Browser): Promise<boolean> {
    const start = await send(server, 'GET', authorizeUrl(requestParams(client)), { browser });
    return start.location?.startsWith(PATHS.consent) ?? false;
  }

  it('a new password ends the browser sign-in, the access token and the refresh token', async () => {
    const person = await createPerson(server);
    const browser = new Browser();
    const tokens = await obtainTokens(server, { client, username: person.username, scope: 'contacts:read', browser });
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(200);
    expect(await signedIn(browser)).toBe(true);

    const changed = await server.request('PUT', `/api/2/users/${person.id}/`, {
      form: { password: 'a brand new passphrase' },
    });
    expect(changed.status).toBe(200);

    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(401);
    expect((await refreshWith(server, client, tokens.refresh_token)).status).toBe(400);
    expect(await signedIn(browser)).toBe(false);
  });

  it('a change that keeps the password leaves the sign-in alone', async () => {
    const person = await createPerson(server);
    const browser = new Browser();
    const tokens = await obtainTokens(server, { client, username: person.username, scope: 'contacts:read', browser });
    expect((await server.request('PUT', `/api/2/users/${person.id}/`, { form: { firstname: 'Ada' } })).status).toBe(200);
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(200);
    expect(await signedIn(browser)).toBe(true);
  });

  it('a permission taken away narrows the grants that carry it; none left revokes them', async () => {
    const person = await createPerson(server, { permissions: ['contact', 'list'] });
    const tokens = await obtainTokens(server, { client, username: person.username, scope: 'contacts:read lists:write' });
    expect(tokens.scope).toBe('contacts:read lists:write');

    const narrowed = await server.request('PUT', `/api/2/users/${person.id}/`, { form: { permissions: ['contact'] } });
    expect(narrowed.status).toBe(200);
    // Giving the permission back does not give the scope back to a grant that lost it.
    await server.request('PUT', `/api/2/users/${person.id}/`, { form: { permissions: ['contact', 'list'] } });
    const refreshed = await refreshWith(server, client, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    const next = refreshed.json as { scope: string; access_token: string; refresh_token: string };
    expect(next.scope).toBe('contacts:read');
    const newList = { name: 'narrowed', description: 'x' };
    expect((await api(server, 'POST', '/api/2/lists/', next.access_token, newList)).status).toBe(403);
    expect((await api(server, 'POST', '/api/2/lists/', tokens.access_token, newList)).status).toBe(403);
    expect((await api(server, 'GET', '/api/2/contacts/', next.access_token)).status).toBe(200);

    await server.request('PUT', `/api/2/users/${person.id}/`, { form: { permissions: [] } });
    await server.request('PUT', `/api/2/users/${person.id}/`, { form: { permissions: ['contact', 'list'] } });
    expect((await api(server, 'GET', '/api/2/contacts/', next.access_token)).status).toBe(401);
    expect((await refreshWith(server, client, next.refresh_token)).status).toBe(400);
  });

  it('deleting an administrator ends its sign-in and tokens; deleting or narrowing a key works at once', async () => {
    const person = await createPerson(server);
    const browser = new Browser();
    const tokens = await obtainTokens(server, { client, username: person.username, scope: 'contacts:read', browser });
    expect((await server.request('DELETE', `/api/2/users/${person.id}/`)).status).toBe(200);
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(401);
    expect((await refreshWith(server, client, tokens.refresh_token)).status).toBe(400);
    expect(await signedIn(browser)).toBe(false);

    // A key the process has just used (and so cached) loses what the write took away, at once.
    const key = await server.createKey({ accountId: server.account.id, permissions: ['superadmin'] });
    const users = (await server.request('GET', '/api/2/users/', { key })).json as { data: { id: number; api: number }[] };
    expect(users.data.length).toBeGreaterThan(0);
    const keyId = users.data.filter((row) => row.api === 2).map((row) => row.id).sort((a, b) => b - a)[0];
    expect((await server.request('PUT', `/api/2/users/${keyId}/`, { form: { permissions: ['contact'] } })).status).toBe(200);
    expect((await server.request('GET', '/api/2/users/', { key })).status).toBe(403);
    expect((await server.request('DELETE', `/api/2/users/${keyId}/`)).status).toBe(200);
    expect((await server.request('GET', '/api/2/contacts/', { key })).status).toBe(401);
  });
});
