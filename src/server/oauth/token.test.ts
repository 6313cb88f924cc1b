import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import type { CreatedClient } from './clients.service.ts';
import {
  Browser,
  api,
  basicAuth,
  clientFields,
  createPerson,
  obtainCode,
  obtainTokens,
  pkcePair,
  redeem,
  refreshWith,
  registerClient,
  send,
  tokensOf,
  type Answer,
} from './oauth-test-support.ts';
import { OAUTH_PAGE_PATHS as PATHS } from './paths.ts';

const TOKEN_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
];

/** SECURITY.md 6: RFC 6749 §5.2 JSON, never cached. */
function expectTokenError(answer: Answer, error: string, status = 400): void {
  expect(answer.status).toBe(status);
  const body = answer.json as { error?: unknown; error_description?: unknown };
  expect(body.error).toBe(error);
  expect(TOKEN_ERROR_CODES).toContain(body.error);
  expect(typeof body.error_description).toBe('string');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
}

describeEachDialect('OAuth token and refresh endpoints', (dialect) => {
  let server: TestServer;
  let client: CreatedClient;
  let publicClient: CreatedClient;
  let otherClient: CreatedClient;
  let username: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    client = await registerClient(server);
    publicClient = await registerClient(server, {
      isPublic: true,
      redirectUris: ['http://127.0.0.1:4000/cb'],
    });
    otherClient = await registerClient(server, { redirectUris: ['https://other.example/cb'] });
    username = (await createPerson(server)).username;
  });
  afterAll(() => server.close());

  async function grantRow(accessToken: string) {
    const { hashKey } = await import('../auth/keys.ts');
    return server.database.db
      .selectFrom('oauth_access_tokens')
      .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_access_tokens.grant_id')
      .select([
        'oauth_grants.id',
        'oauth_grants.expires_at',
        'oauth_grants.revoked_at',
        'oauth_access_tokens.expires_at as token_expires_at',
      ])
      .where('oauth_access_tokens.token_hash', '=', hashKey(accessToken))
      .executeTakeFirstOrThrow();
  }

  it('exchanges a code for a short-lived Bearer token and a refresh token, with no-store', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, {
      client,
      username,
      challenge,
      scope: 'contacts:read lists:read',
    });
    const answer = await redeem(server, client, code, { code_verifier: verifier });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.pragma).toBe('no-cache');
    expect(answer.json).toEqual({
      access_token: expect.stringMatching(/^lkat\.[A-Za-z0-9_-]{43}$/) as unknown,
      token_type: 'Bearer',
      expires_in: 900,
      refresh_token: expect.stringMatching(/^lkrt\.[A-Za-z0-9_-]{43}$/) as unknown,
      scope: 'contacts:read lists:read',
    });
    const row = await grantRow(tokensOf(answer).access_token);
    expect(Date.parse(row.token_expires_at) - server.clock.now().getTime()).toBeLessThanOrEqual(
      900_000,
    );
  });

  it('accepts the client secret with HTTP Basic as well as in the form', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username, challenge });
    const answer = await send(server, 'POST', PATHS.token, {
      headers: { authorization: basicAuth(client.client_id, client.client_secret ?? '') },
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirect_uris[0] ?? '',
        code_verifier: verifier,
      },
    });
    expect(answer.status).toBe(200);
  });

  // SECURITY.md 2.
  it('refuses a token request whose redirect_uri differs from the code’s', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username, challenge });
    expectTokenError(
      await redeem(server, client, code, {
        code_verifier: verifier,
        redirect_uri: 'https://client.example/cb/',
      }),
      'invalid_grant',
    );
    expectTokenError(
      await redeem(server, client, code, {
        code_verifier: verifier,
        redirect_uri: 'https://client.example/cb?x',
      }),
      'invalid_grant',
    );
    const { redirect_uri: _, ...form } = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: '',
      code_verifier: verifier,
      ...clientFields(client),
    };
    expectTokenError(await send(server, 'POST', PATHS.token, { form }), 'invalid_request');
    // Not spent by the failures: the right request still works.
    expect((await redeem(server, client, code, { code_verifier: verifier })).status).toBe(200);
  });

  // SECURITY.md 3.
  it('refuses a wrong, missing or unexpected code_verifier with invalid_grant', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client: publicClient, username, challenge });
    expectTokenError(await redeem(server, publicClient, code), 'invalid_grant');
    expectTokenError(
      await redeem(server, publicClient, code, { code_verifier: pkcePair().verifier }),
      'invalid_grant',
    );
    expectTokenError(
      await redeem(server, publicClient, code, { code_verifier: challenge }),
      'invalid_grant',
    );
    expectTokenError(
      await redeem(server, publicClient, code, { code_verifier: 'short' }),
      'invalid_grant',
    );
    expect((await redeem(server, publicClient, code, { code_verifier: verifier })).status).toBe(
      200,
    );

    // A confidential client that sent no challenge may not send a verifier.
    const plainCode = await obtainCode(server, { client, username });
    expectTokenError(
      await redeem(server, client, plainCode, { code_verifier: verifier }),
      'invalid_grant',
    );
    expect((await redeem(server, client, plainCode)).status).toBe(200);
  });

  it('does not let a public client present a secret, nor a confidential one go without', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client: publicClient, username, challenge });
    expectTokenError(
      await redeem(server, publicClient, code, { code_verifier: verifier, client_secret: 'guess' }),
      'invalid_client',
      401,
    );
    const confidentialCode = await obtainCode(server, { client, username });
    const answer = await send(server, 'POST', PATHS.token, {
      form: {
        grant_type: 'authorization_code',
        code: confidentialCode,
        redirect_uri: client.redirect_uris[0] ?? '',
        client_id: client.client_id,
      },
    });
    expectTokenError(answer, 'invalid_client', 401);
    expect(answer.headers['www-authenticate']).toMatch(/^Basic /);
  });

  // SECURITY.md 4.
  it('refuses a replayed code and revokes every token issued from it', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username, challenge });
    const first = await redeem(server, client, code, { code_verifier: verifier });
    expect(first.status).toBe(200);
    expect(
      (await api(server, 'GET', '/api/2/contacts/', tokensOf(first).access_token)).status,
    ).toBe(200);

    expectTokenError(
      await redeem(server, client, code, { code_verifier: verifier }),
      'invalid_grant',
    );
    expect(
      (await api(server, 'GET', '/api/2/contacts/', tokensOf(first).access_token)).status,
    ).toBe(401);
    expectTokenError(
      await refreshWith(server, client, tokensOf(first).refresh_token),
      'invalid_grant',
    );
  });

  it('revokes on a replay that comes after the code expired', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username, challenge });
    const first = tokensOf(await redeem(server, client, code, { code_verifier: verifier }));
    const { hashKey } = await import('../auth/keys.ts');
    await server.database.db
      .updateTable('oauth_codes')
      .set({ expires_at: new Date(server.clock.now().getTime() - 1000).toISOString() })
      .where('code_hash', '=', hashKey(code))
      .execute();
    expectTokenError(
      await redeem(server, client, code, { code_verifier: verifier }),
      'invalid_grant',
    );
    expect((await api(server, 'GET', '/api/2/contacts/', first.access_token)).status).toBe(401);
  });

  it('refuses a code redeemed by another client, without spending it', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username, challenge });
    const stolen = await send(server, 'POST', PATHS.token, {
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirect_uris[0] ?? '',
        code_verifier: verifier,
        ...clientFields(otherClient),
      },
    });
    expectTokenError(stolen, 'invalid_grant');
    expect((await redeem(server, client, code, { code_verifier: verifier })).status).toBe(200);
  });

  it('lives at most 60 seconds', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username, challenge });
    const { hashKey } = await import('../auth/keys.ts');
    const row = await server.database.db
      .selectFrom('oauth_codes')
      .select(['id', 'created', 'expires_at'])
      .where('code_hash', '=', hashKey(code))
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created)).toBeLessThanOrEqual(60_000);
    await server.database.db
      .updateTable('oauth_codes')
      .set({ expires_at: new Date(server.clock.now().getTime() - 1000).toISOString() })
      .where('id', '=', row.id)
      .execute();
    expectTokenError(
      await redeem(server, client, code, { code_verifier: verifier }),
      'invalid_grant',
    );
  });

  it('answers exactly one of 50 parallel redemptions of one code with 200', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client, username, challenge });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => redeem(server, client, code, { code_verifier: verifier })),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    const winner = tokensOf(winners[0] ?? answers[0]!);
    for (const loser of answers.filter((a) => a.status !== 200))
      expectTokenError(loser, 'invalid_grant');
    // The losers were replays: the winner's tokens are revoked too (SECURITY.md 4).
    expect((await api(server, 'GET', '/api/2/contacts/', winner.access_token)).status).toBe(401);
  });

  // SECURITY.md 5.
  it('rotates refresh tokens; reusing a rotated one revokes the whole grant', async () => {
    const tokens = await obtainTokens(server, { client, username });
    const refreshed = await refreshWith(server, client, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    expect(tokensOf(refreshed).refresh_token).not.toBe(tokens.refresh_token);
    expect(tokensOf(refreshed).access_token).not.toBe(tokens.access_token);
    const second = await refreshWith(
      server,
      client,
      tokensOf(refreshed).refresh_token,
      PATHS.refresh,
    );
    expect(second.status).toBe(200);
    expect(
      (await api(server, 'GET', '/api/2/contacts/', tokensOf(second).access_token)).status,
    ).toBe(200);

    expectTokenError(await refreshWith(server, client, tokens.refresh_token), 'invalid_grant');
    expect(
      (await api(server, 'GET', '/api/2/contacts/', tokensOf(second).access_token)).status,
    ).toBe(401);
    expectTokenError(
      await refreshWith(server, client, tokensOf(second).refresh_token),
      'invalid_grant',
    );
  });

  it('rotates atomically: of 10 parallel refreshes with one token exactly one succeeds', async () => {
    const tokens = await obtainTokens(server, { client, username });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => refreshWith(server, client, tokens.refresh_token)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 200))
      expectTokenError(loser, 'invalid_grant');
  });

  it('never extends the grant’s absolute lifetime', async () => {
    const tokens = await obtainTokens(server, { client, username });
    const before = await grantRow(tokens.access_token);
    expect(Date.parse(before.expires_at) - server.clock.now().getTime()).toBeLessThanOrEqual(
      30 * 24 * 3600 * 1000,
    );
    const refreshed = await refreshWith(server, client, tokens.refresh_token);
    const after = await grantRow(tokensOf(refreshed).access_token);
    expect(after.id).toBe(before.id);
    expect(after.expires_at).toBe(before.expires_at);

    // Near its end, the access token ends with the grant; past it, refresh is refused.
    const soon = new Date(server.clock.now().getTime() + 60_000).toISOString();
    await server.database.db
      .updateTable('oauth_grants')
      .set({ expires_at: soon })
      .where('id', '=', before.id)
      .execute();
    const last = await refreshWith(server, client, tokensOf(refreshed).refresh_token);
    expect(last.status).toBe(200);
    expect(tokensOf(last).expires_in).toBeLessThanOrEqual(60);
    const past = new Date(server.clock.now().getTime() - 1000).toISOString();
    await server.database.db
      .updateTable('oauth_grants')
      .set({ expires_at: past })
      .where('id', '=', before.id)
      .execute();
    expectTokenError(
      await refreshWith(server, client, tokensOf(last).refresh_token),
      'invalid_grant',
    );
  });

  it('refuses a refresh token of another client and a wider scope, allows a narrower one', async () => {
    const tokens = await obtainTokens(server, {
      client,
      username,
      scope: 'contacts:read lists:read',
    });
    expectTokenError(await refreshWith(server, otherClient, tokens.refresh_token), 'invalid_grant');
    const wider = await send(server, 'POST', PATHS.token, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        scope: 'contacts:read contacts:write',
        ...clientFields(client),
      },
    });
    expectTokenError(wider, 'invalid_scope');
    const narrower = await send(server, 'POST', PATHS.token, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        scope: 'lists:read',
        ...clientFields(client),
      },
    });
    expect(narrower.status).toBe(200);
    expect(tokensOf(narrower).scope).toBe('lists:read');
    expect(
      (await api(server, 'GET', '/api/2/contacts/', tokensOf(narrower).access_token)).status,
    ).toBe(403);
    expect(
      (await api(server, 'GET', '/api/2/lists/', tokensOf(narrower).access_token)).status,
    ).toBe(200);
  });

  // Issue 16 finding 14: README "OAuth" says a refresh may narrow, never widen.
  it('keeps a narrowed grant narrow: a later refresh without scope, or asking for more, gets no more', async () => {
    const tokens = await obtainTokens(server, {
      client,
      username,
      scope: 'contacts:read lists:read',
    });
    const narrowed = tokensOf(
      await send(server, 'POST', PATHS.token, {
        form: {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          scope: 'lists:read',
          ...clientFields(client),
        },
      }),
    );
    expect(narrowed.scope).toBe('lists:read');
    const plain = tokensOf(await refreshWith(server, client, narrowed.refresh_token));
    expect(plain.scope).toBe('lists:read');
    expect((await api(server, 'GET', '/api/2/contacts/', plain.access_token)).status).toBe(403);
    const back = await send(server, 'POST', PATHS.token, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: plain.refresh_token,
        scope: 'contacts:read lists:read',
        ...clientFields(client),
      },
    });
    expectTokenError(back, 'invalid_scope');
    // The access token issued before the narrowing is narrowed with its grant.
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(403);
    expect((await api(server, 'GET', '/api/2/lists/', tokens.access_token)).status).toBe(200);
  });

  // SECURITY.md 6.
  it('answers malformed requests with RFC 6749 errors and no-store', async () => {
    const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      send(server, 'POST', PATHS.token, { form, headers });
    expectTokenError(await token({ ...clientFields(client) }), 'invalid_request');
    expectTokenError(
      await token({ grant_type: 'password', username, password: 'x', ...clientFields(client) }),
      'unsupported_grant_type',
    );
    expectTokenError(
      await token({ grant_type: 'client_credentials', ...clientFields(client) }),
      'unsupported_grant_type',
    );
    expectTokenError(
      await token({ grant_type: 'implicit', ...clientFields(client) }),
      'unsupported_grant_type',
    );
    expectTokenError(
      await token({
        grant_type: 'authorization_code',
        code: 'nonsense',
        redirect_uri: 'x',
        ...clientFields(client),
      }),
      'invalid_grant',
    );
    expectTokenError(
      await token({ grant_type: 'authorization_code', redirect_uri: 'x', ...clientFields(client) }),
      'invalid_request',
    );

    const unknown = await token({
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: 'x',
      client_id: 'nobody',
      client_secret: 'x',
    });
    expectTokenError(unknown, 'invalid_client', 401);
    expect(unknown.headers['www-authenticate']).toMatch(/^Basic realm=/);
    const wrongSecret = await token({
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: 'x',
      client_id: client.client_id,
      client_secret: 'wrong',
    });
    expectTokenError(wrongSecret, 'invalid_client', 401);
    const basicWrong = await token(
      { grant_type: 'authorization_code', code: 'x', redirect_uri: 'x' },
      { authorization: basicAuth(client.client_id, 'wrong') },
    );
    expectTokenError(basicWrong, 'invalid_client', 401);
    const both = await token(
      {
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: 'x',
        client_secret: client.client_secret ?? '',
      },
      { authorization: basicAuth(client.client_id, client.client_secret ?? '') },
    );
    expectTokenError(both, 'invalid_request');

    const repeated = new URLSearchParams({
      grant_type: 'authorization_code',
      code: 'a',
      redirect_uri: 'x',
      ...clientFields(client),
    });
    repeated.append('code', 'b');
    expectTokenError(
      await send(server, 'POST', PATHS.token, { form: repeated }),
      'invalid_request',
    );

    const jsonBody = await server.app.inject({
      method: 'POST',
      url: PATHS.token,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ grant_type: 'authorization_code' }),
    });
    expect(jsonBody.statusCode).toBe(400);
    expect(JSON.parse(jsonBody.body)).toMatchObject({ error: 'invalid_request' });
    expect(jsonBody.headers['cache-control']).toBe('no-store');

    expectTokenError(
      await send(server, 'POST', PATHS.refresh, {
        form: { grant_type: 'authorization_code', code: 'x', ...clientFields(client) },
      }),
      'unsupported_grant_type',
    );
  });

  it('has no GET token endpoint', async () => {
    expect((await send(server, 'GET', PATHS.token)).status).toBe(404);
  });

  // SECURITY.md 7: CORS on token and refresh, for registered client origins only.
  it('answers CORS on the token and refresh endpoints for registered origins only', async () => {
    for (const path of [PATHS.token, PATHS.refresh]) {
      const allowed = await send(server, 'OPTIONS', path, {
        headers: { origin: 'http://127.0.0.1:4000', 'access-control-request-method': 'POST' },
      });
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:4000');
      expect(allowed.headers['access-control-allow-methods']).toBe('POST');
      expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();

      const refused = await send(server, 'OPTIONS', path, {
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();

      const post = await send(server, 'POST', path, {
        headers: { origin: 'https://client.example' },
        form: { grant_type: 'refresh_token', refresh_token: 'x', ...clientFields(client) },
      });
      expect(post.headers['access-control-allow-origin']).toBe('https://client.example');
      expect(post.headers.vary).toMatch(/Origin/);
      const evil = await send(server, 'POST', path, {
        headers: { origin: 'https://evil.example' },
        form: { grant_type: 'refresh_token', refresh_token: 'x', ...clientFields(client) },
      });
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('completes the flow for a public client with PKCE, granting every scope when none is asked for', async () => {
    const browser = new Browser();
    const { verifier, challenge } = pkcePair();
    const code = await obtainCode(server, { client: publicClient, username, challenge, browser });
    const answer = await redeem(server, publicClient, code, { code_verifier: verifier });
    expect(answer.status).toBe(200);
    expect(tokensOf(answer).scope.split(' ')).toContain('users:write');
  });
});
