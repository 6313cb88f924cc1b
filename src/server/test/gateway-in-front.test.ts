import { afterEach, beforeEach, expect, it } from 'vitest';
import { OAUTH_PATHS } from '../../api/constants.ts';
import type { SessionStore } from '../../gateway/session-store.ts';
import type { CreatedClient } from '../oauth/clients.service.ts';
import {
  Browser,
  basicAuth,
  createPerson,
  decide,
  registerClient,
  signIn,
} from '../oauth/oauth-test-support.ts';
import {
  LOGIN_COOKIE,
  PUBLIC_URL,
  SESSION_COOKIE,
  cookieOf,
  fromDashboard,
  listening,
  startGatewayInFront,
  type GatewayInFront,
} from './gateway-in-front.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * `listkeeper dashboard` (src/gateway) in front of the real reference server with `EXTENSIONS=off`
 * (exactly spec v2), listening on a loopback port, as a confidential client: the code exchange and
 * every refresh happen in the gateway, with the client secret (SECURITY.md 9, 28).
 */

/** One request the gateway made to the upstream, as the upstream received it. */
interface Sent {
  method: string;
  path: string;
  authorization: string | null;
  status: number;
}

describeEachDialect('the gateway in front of a spec-only server', (dialect) => {
  let server: TestServer;
  let upstreamUrl: string;
  let client: CreatedClient;
  let username: string;
  let inFront: GatewayInFront;
  let gateway: GatewayInFront['gateway'];
  let store: SessionStore;
  let clock: number;
  let sent: Sent[];

  beforeEach(async () => {
    server = await startTestServer(dialect, { extensions: false });
    upstreamUrl = await listening(server);
    client = await registerClient(server, {
      name: 'Listkeeper gateway',
      redirectUris: [`${PUBLIC_URL}/auth/callback`],
    });
    ({ username } = await createPerson(server));
    // The gateway's clock, which the tests move on: the machine's time, not the server's date,
    // since upstream.ts stamps the tokens it gets with Date.now(), not with this clock.
    clock = Date.now();
    sent = [];
    inFront = await startGatewayInFront(upstreamUrl, client, {
      now: () => clock,
      observe: ({ response, ...call }) => void sent.push({ ...call, status: response.status }),
    });
    ({ gateway, store } = inFront);
  });

  afterEach(async () => {
    await inFront.close();
    await server.close();
  });

  /** The browser's part: the gateway's login, the upstream's sign-in and consent pages. */
  async function authorize() {
    const login = await gateway.inject({ url: '/auth/login?next=/lists' });
    expect(login.statusCode).toBe(303);
    const loginCookie = cookieOf(login.headers['set-cookie'], LOGIN_COOKIE);
    const request = new URL(String(login.headers.location));
    expect(request.origin + request.pathname).toBe(`${upstreamUrl}${OAUTH_PATHS.authorize}`);
    const browser = new Browser();
    const consent = await signIn(
      server,
      browser,
      Object.fromEntries(request.searchParams),
      username,
    );
    const back = await decide(server, browser, consent, 'allow');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/auth/callback`);
    return { back, loginCookie };
  }

  async function signInWithOAuth(): Promise<string> {
    const { back, loginCookie } = await authorize();
    const callback = await gateway.inject({
      url: `${back.pathname}${back.search}`,
      headers: { cookie: loginCookie },
    });
    expect([callback.statusCode, callback.headers.location]).toEqual([
      303,
      '/sign-in?next=%2Flists',
    ]);
    const setCookie = [callback.headers['set-cookie'] ?? []].flat();
    // The login cookie is cleared: the session cookie is the browser's only one.
    expect(setCookie.find((line) => line.startsWith(`${LOGIN_COOKIE}=;`))).toMatch(
      /Expires=Thu, 01 Jan 1970/,
    );
    return cookieOf(setCookie, SESSION_COOKIE);
  }

  /** What the gateway asked the upstream, and what came back, one line each. */
  const calls = () => sent.map(({ method, path, status }) => `${method} ${path} ${status}`);

  const lists = (cookie: string) =>
    gateway.inject({ url: '/api/2/lists/', headers: { ...fromDashboard, cookie } });

  const heldTokens = async (cookie: string) => {
    const session = await store.find(cookie.split('=')[1], clock);
    if (session?.credential.method !== 'oauth') throw new Error('no OAuth session');
    return session.credential.tokens;
  };

  it('redeems the code with its secret, and refreshes at spec §4.9’s refresh endpoint with it before the token expires', async () => {
    const cookie = await signInWithOAuth();
    const secret = [client.client_id, client.client_secret];
    const exchange = sent.find((request) => request.path === OAUTH_PATHS.token);
    expect(exchange).toMatchObject({ method: 'POST', status: 200 });
    expect(basicCredentials(exchange?.authorization)).toEqual(secret);
    expect((await lists(cookie)).statusCode).toBe(200);
    const first = await heldTokens(cookie);

    // 14½ minutes on (the server's tokens live 15): due, refreshed before the request is sent.
    clock += 14.5 * 60_000;
    sent.length = 0;
    const answer = await lists(cookie);
    expect(answer.statusCode).toBe(200);
    const second = await heldTokens(cookie);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(calls()).toEqual([`POST ${OAUTH_PATHS.refresh} 200`, 'GET /api/2/lists/ 200']);
    expect(basicCredentials(sent[0]?.authorization)).toEqual(secret);
    expect(sent[1]?.authorization).toBe(`Bearer ${second.accessToken}`);
    // The server rotated the refresh token (SECURITY.md 5): the old one is spent.
    expect(
      (
        await server.request('POST', OAUTH_PATHS.refresh, {
          auth: basicAuth(client.client_id, client.client_secret ?? ''),
          form: { grant_type: 'refresh_token', refresh_token: first.refreshToken },
        })
      ).status,
    ).toBe(400);
  });

  it('an access token the upstream refuses: one refresh, one retry; a refused refresh ends the session', async () => {
    const cookie = await signInWithOAuth();
    const first = await heldTokens(cookie);
    // The server ends the access token early (as a revocation would); the gateway still thinks it good.
    const expire = () =>
      server.database.db
        .updateTable('oauth_access_tokens')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .execute();
    await expire();
    sent.length = 0;
    const answer = await lists(cookie);
    expect(answer.statusCode).toBe(200);
    const second = await heldTokens(cookie);
    expect(calls()).toEqual([
      'GET /api/2/lists/ 401',
      `POST ${OAUTH_PATHS.refresh} 200`,
      'GET /api/2/lists/ 200',
    ]);
    expect(sent[0]?.authorization).toBe(`Bearer ${first.accessToken}`);
    expect(sent[2]?.authorization).toBe(`Bearer ${second.accessToken}`);

    // The grant is revoked at the server: the refresh is refused, the session ends, the page hears 401.
    await server.database.db
      .updateTable('oauth_grants')
      .set({ revoked_at: '2000-01-01T00:00:00.000Z' })
      .execute();
    await expire();
    sent.length = 0;
    const refused = await lists(cookie);
    expect(refused.statusCode).toBe(401);
    expect(calls()).toEqual(['GET /api/2/lists/ 401', `POST ${OAUTH_PATHS.refresh} 400`]);
    const session = await gateway.inject({ url: '/auth/session', headers: { cookie } });
    expect(session.json()).toEqual({ signed_in: false });
  });

  it('refuses a callback whose `iss` names another server (RFC 9207): no code exchange, no session', async () => {
    const { back, loginCookie } = await authorize();
    expect(back.searchParams.get('iss')).toBe(upstreamUrl);
    back.searchParams.set('iss', 'https://evil.example');
    sent.length = 0;
    const callback = await gateway.inject({
      url: `${back.pathname}${back.search}`,
      headers: { cookie: loginCookie },
    });
    expect([callback.statusCode, callback.headers.location]).toEqual([303, '/auth/sign-in-failed']);
    expect(
      [callback.headers['set-cookie'] ?? []]
        .flat()
        .some((line) => line.startsWith(`${SESSION_COOKIE}=`)),
    ).toBe(false);
    // The code was never redeemed (only the upstream's RFC 8414 metadata was asked for, once).
    expect(sent.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

/** RFC 6749 §2.3.1: HTTP Basic of the form-encoded client id and secret. */
function basicCredentials(header: string | null | undefined): string[] {
  const encoded = /^Basic (.+)$/.exec(header ?? '')?.[1] ?? '';
  return Buffer.from(encoded, 'base64')
    .toString()
    .split(':')
    .map((part) => decodeURIComponent(part));
}
