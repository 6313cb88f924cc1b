import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import type { CreatedClient } from './clients.service.ts';
import {
  Browser,
  api,
  authorizeUrl,
  createPerson,
  decide,
  obtainTokens,
  registerClient,
  requestParams,
  send,
  signIn,
} from './oauth-test-support.ts';

/** Spec §5.2 rule 3: an access token works as a Bearer key, with its granter's account and rights. */
describeEachDialect('OAuth access tokens on the API', (dialect) => {
  let server: TestServer;
  let client: CreatedClient;
  let otherAccount: { id: number; name: string };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    client = await registerClient(server);
    otherAccount = await server.createAccount('globex');
    const acme = await server.request('POST', '/api/2/contacts/', { form: { firstname: 'Ada', emails: ['ada@acme.example'] } });
    expect(acme.status).toBe(200);
    const globex = await server.request('POST', '/api/2/contacts/', {
      key: server.globalKey,
      query: { account_id: otherAccount.id },
      form: { firstname: 'Grace', emails: ['grace@globex.example'] },
    });
    expect(globex.status).toBe(200);
  });
  afterAll(() => server.close());

  function emailsOf(answer: { json: unknown }): string[] {
    const page = answer.json as { data: { emails: { email: string }[] }[] };
    return page.data.flatMap((contact) => contact.emails.map((e) => e.email));
  }

  it('works as a Bearer key on /api/2/contacts/ with the account of the administrator who granted it', async () => {
    const acmePerson = await createPerson(server);
    const globexPerson = await createPerson(server, { accountId: otherAccount.id });
    const acmeToken = (await obtainTokens(server, { client, username: acmePerson.username })).access_token;
    const globexToken = (await obtainTokens(server, { client, username: globexPerson.username })).access_token;

    const acme = await api(server, 'GET', '/api/2/contacts/', acmeToken);
    expect(acme.status).toBe(200);
    expect(emailsOf(acme)).toEqual(['ada@acme.example']);
    expect(acme.headers['x-ratelimit-limit']).toBeDefined();
    const globex = await api(server, 'GET', '/api/2/contacts/', globexToken);
    expect(emailsOf(globex)).toEqual(['grace@globex.example']);

    // SECURITY.md 15: an account token never reaches another account.
    const crossing = await api(server, 'GET', `/api/2/contacts/?account_id=${otherAccount.id}`, acmeToken);
    expect(crossing.status).toBe(403);

    const created = await api(server, 'POST', '/api/2/contacts/', acmeToken, { firstname: 'Tok', emails: 'tok@acme.example' });
    expect(created.status).toBe(200);
  });

  it('acts with the administrator’s permissions: what they may not do stays 403', async () => {
    const reader = await createPerson(server, { permissions: ['contact'] });
    const tokens = await obtainTokens(server, { client, username: reader.username });
    // Scopes the person cannot use were never granted.
    expect(tokens.scope).toBe('contacts:read contacts:write lists:read');
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(200);
    expect((await api(server, 'GET', '/api/2/users/', tokens.access_token)).status).toBe(403);
    expect((await api(server, 'GET', '/api/2/messages/', tokens.access_token)).status).toBe(403);
  });

  it('follows the administrator’s permissions as they are now', async () => {
    const person = await createPerson(server, { permissions: ['superadmin'] });
    const tokens = await obtainTokens(server, { client, username: person.username, scope: 'users:read' });
    expect((await api(server, 'GET', '/api/2/users/', tokens.access_token)).status).toBe(200);
    await server.database.db.updateTable('administrators').set({ permissions: '["contact"]' }).where('id', '=', person.id).execute();
    expect((await api(server, 'GET', '/api/2/users/', tokens.access_token)).status).toBe(403);
  });

  it('is restricted by its scopes: an operation outside them is 403', async () => {
    const person = await createPerson(server);
    const tokens = await obtainTokens(server, { client, username: person.username, scope: 'contacts:read' });
    expect(tokens.scope).toBe('contacts:read');
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(200);
    const write = await api(server, 'POST', '/api/2/contacts/', tokens.access_token, { emails: 'nope@acme.example' });
    expect(write.status).toBe(403);
    expect(write.json).toEqual({ is_error: true, message: 'This access token was not granted the contacts:write scope' });
    expect((await api(server, 'GET', '/api/2/lists/', tokens.access_token)).status).toBe(403);
  });

  it('shows on the consent page what the administrator’s permissions withhold', async () => {
    const moderator = await createPerson(server, { permissions: ['approval'] });
    const browser = new Browser();
    const consentUrl = await signIn(server, browser, requestParams(client, { scope: 'messages:read users:write' }), moderator.username);
    const page = await send(server, 'GET', consentUrl, { browser });
    expect(page.body).toContain('Read list messages');
    expect(page.body).toMatch(/do not allow[\s\S]*Create, change and delete administrators/);
    const back = await decide(server, browser, consentUrl, 'allow');
    expect(back.searchParams.get('code')).toBeTruthy();

    // Nothing grantable: only a way back, and Allow is refused as access_denied.
    const none = await send(server, 'GET', authorizeUrl(requestParams(client, { scope: 'users:write' })), { browser });
    const nothing = await send(server, 'GET', none.location ?? '', { browser });
    expect(nothing.body).not.toContain('value="allow"');
    const denied = await decide(server, browser, none.location ?? '', 'allow');
    expect(denied.searchParams.get('error')).toBe('access_denied');
  });

  it('gives a global administrator a global token that chooses its account with account_id', async () => {
    const operator = await createPerson(server, { accountId: null, permissions: ['superadmin', 'account'] });
    const tokens = await obtainTokens(server, { client, username: operator.username });
    expect(tokens.scope.split(' ')).toContain('accounts:write');
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(400);
    const globex = await api(server, 'GET', `/api/2/contacts/?account_id=${otherAccount.id}`, tokens.access_token);
    expect(globex.status).toBe(200);
    expect(emailsOf(globex)).toEqual(['grace@globex.example']);
    expect((await api(server, 'GET', '/api/2/accounts/', tokens.access_token)).status).toBe(200);

    // An account administrator can never grant the group's accounts: its superadmin's
    // accounts:read reaches its own account only (extension, api/operations.ts OWN_ACCOUNT).
    const local = await createPerson(server);
    const localTokens = await obtainTokens(server, { client, username: local.username });
    expect(localTokens.scope.split(' ')).toContain('accounts:read');
    expect((await api(server, 'GET', '/api/2/accounts/', localTokens.access_token)).status).toBe(403);
    expect((await api(server, 'GET', `/api/2/accounts/${otherAccount.id}/`, localTokens.access_token)).status).toBe(403);
    expect((await api(server, 'GET', `/api/2/accounts/${server.account.id}/`, localTokens.access_token)).status).toBe(200);
    const listsOnly = await createPerson(server, { permissions: ['list'] });
    const listsTokens = await obtainTokens(server, { client, username: listsOnly.username });
    expect(listsTokens.scope.split(' ')).not.toContain('accounts:read');
  });

  it('refuses a revoked, expired or unknown token with the same 401', async () => {
    const person = await createPerson(server);
    const tokens = await obtainTokens(server, { client, username: person.username });
    const { hashKey } = await import('../auth/keys.ts');
    const row = await server.database.db
      .selectFrom('oauth_access_tokens')
      .select(['id', 'grant_id'])
      .where('token_hash', '=', hashKey(tokens.access_token))
      .executeTakeFirstOrThrow();

    await server.database.db.updateTable('oauth_access_tokens').set({ expires_at: new Date(server.clock.now().getTime() - 1).toISOString() }).where('id', '=', row.id).execute();
    const expired = await api(server, 'GET', '/api/2/contacts/', tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ is_error: true, message: 'Authentication failed' });
    expect(expired.headers['www-authenticate']).toMatch(/Bearer/);

    const fresh = await obtainTokens(server, { client, username: person.username });
    await server.database.db.updateTable('oauth_grants').set({ revoked_at: server.clock.now().toISOString() }).execute();
    const revoked = await api(server, 'GET', '/api/2/contacts/', fresh.access_token);
    expect(revoked.status).toBe(401);
    expect(revoked.json).toEqual({ is_error: true, message: 'Authentication failed' });

    const unknown = await api(server, 'GET', '/api/2/contacts/', `lkat.${'x'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual({ is_error: true, message: 'Authentication failed' });
    // The refresh token is no use as an access token.
    expect((await api(server, 'GET', '/api/2/contacts/', fresh.refresh_token)).status).toBe(401);
  });

  it('is accepted as Bearer only, never as a Basic user name', async () => {
    const person = await createPerson(server);
    const tokens = await obtainTokens(server, { client, username: person.username });
    const basic = await send(server, 'GET', '/api/2/contacts/', {
      headers: { authorization: `Basic ${Buffer.from(`${tokens.access_token}:`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
  });

  // SECURITY.md 11: never in a URL.
  it('refuses ?access_token= on every API path and never authenticates with it', async () => {
    const person = await createPerson(server);
    const tokens = await obtainTokens(server, { client, username: person.username });
    for (const url of [
      `/api/2/contacts/?access_token=${tokens.access_token}`,
      `/api/2/lists/?access_token=${tokens.access_token}`,
      `/api/2/contacts/?limit=5&access%5Ftoken=${tokens.access_token}`,
      `/api/2/oauth/token/?access_token=${tokens.access_token}`,
    ]) {
      const withoutHeader = await send(server, 'GET', url);
      expect(withoutHeader.status).toBe(400);
      const withHeader = await api(server, 'GET', url, tokens.access_token);
      expect(withHeader.status).toBe(400);
    }
  });
});
