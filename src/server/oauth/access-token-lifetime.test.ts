import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { manualClock, type ManualClock } from '../lib/clock.ts';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import { testClock } from '../test/test-clock.ts';
import {
  api,
  createPerson,
  obtainTokens,
  refreshWith,
  registerClient,
} from './oauth-test-support.ts';

/** Issue 28 item 2: the access token's lifetime is a setting, by the server's clock. */
describeEachDialect('OAUTH_ACCESS_TOKEN_SECONDS', (dialect) => {
  let server: TestServer;
  let clock: ManualClock;
  let twoMinutes: FastifyInstance;

  beforeAll(async () => {
    clock = manualClock(testClock().now());
    server = await startTestServer(dialect, { clock });
    // Another server process on the same database, configured with 120 seconds.
    twoMinutes = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        STATIC_DIR: path.join(os.tmpdir(), 'listkeeper-no-dashboard'),
        OAUTH_ACCESS_TOKEN_SECONDS: '120',
      }),
      database: server.database,
      clock,
    });
    await twoMinutes.ready();
  });
  afterAll(async () => {
    await twoMinutes.close();
    await server.close();
  });

  it('is 900 seconds unless set', () => {
    expect(loadConfig({}).oauthAccessTokenSeconds).toBe(900);
    expect(() => loadConfig({ OAUTH_ACCESS_TOKEN_SECONDS: '0' })).toThrow(
      /OAUTH_ACCESS_TOKEN_SECONDS/,
    );
    expect(() => loadConfig({ OAUTH_ACCESS_TOKEN_SECONDS: '90000' })).toThrow(
      /OAUTH_ACCESS_TOKEN_SECONDS/,
    );
  });

  it('sets expires_in and when the server refuses the token, at the code exchange and at a refresh', async () => {
    const other = { ...server, app: twoMinutes };
    const client = await registerClient(server);
    const { username } = await createPerson(server);
    const tokens = await obtainTokens(other, { client, username, scope: 'contacts:read' });
    expect(tokens.expires_in).toBe(120);
    clock.advance(119_000);
    expect((await api(other, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(200);
    clock.advance(1_000);
    expect((await api(other, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(401);

    const refreshed = await refreshWith(other, client, tokens.refresh_token);
    expect((refreshed.json as { expires_in: number }).expires_in).toBe(120);
    // The default server issues 900 seconds.
    const next = await refreshWith(
      server,
      client,
      (refreshed.json as { refresh_token: string }).refresh_token,
    );
    expect((next.json as { expires_in: number }).expires_in).toBe(900);
  });
});
