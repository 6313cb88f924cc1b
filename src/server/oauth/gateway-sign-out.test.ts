import { afterEach, beforeEach, expect, it } from 'vitest';
import { OAUTH_PATHS } from '../../api/constants.ts';
import { manualClock, type ManualClock } from '../lib/clock.ts';
import {
  LOGIN_COOKIE,
  PUBLIC_URL,
  SESSION_COOKIE,
  cookieOf,
  fromDashboard,
  listening,
  startGatewayInFront,
  type GatewayInFront,
} from '../test/gateway-in-front.ts';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import { testClock } from '../test/test-clock.ts';
import { registerGatewayClient, type CreatedClient } from './clients.service.ts';
import {
  Browser,
  api,
  authorizeUrl,
  createPerson,
  decide,
  refreshWith,
  send,
  signIn,
} from './oauth-test-support.ts';
import { OAUTH_PAGE_PATHS as PATHS } from './paths.ts';

/**
 * Issue 28 item 2 (High), SECURITY.md 25 and 32: signing out of the gateway after the access token
 * expired must still end the upstream's grant and its sign-in. The gateway of `npm start` in front
 * of the reference server (extensions on: it has the logout a token can call), signed in as the
 * first-party client `listkeeper-gateway`, which skips consent: a sign-in the upstream still
 * remembered would let the next "Sign in" through with no password and no click.
 */
/** Past the server's default access-token lifetime (OAUTH_ACCESS_TOKEN_SECONDS, 900). */
const PAST_EXPIRY_MS = 16 * 60_000;

describeEachDialect('signing out of the gateway past the access token’s lifetime', (dialect) => {
  let server: TestServer;
  let serverClock: ManualClock;
  /** The gateway's own time: the server's, or one that stands still (clocks that disagree). */
  let gatewayNow: () => number;
  let client: CreatedClient;
  let username: string;
  let inFront: GatewayInFront;
  let gateway: GatewayInFront['gateway'];
  let calls: string[];
  /** The newest tokens the upstream gave the gateway, as the network carried them. */
  let latest: { access_token: string; refresh_token: string };

  beforeEach(async () => {
    serverClock = manualClock(testClock().now());
    gatewayNow = () => serverClock.now().getTime();
    server = await startTestServer(dialect, { clock: serverClock });
    const upstreamUrl = await listening(server);
    // What `npm start` registers (`oauth-client gateway`).
    client = await registerGatewayClient(server.database.db, `${PUBLIC_URL}/auth/callback`);
    ({ username } = await createPerson(server));
    calls = [];
    inFront = await startGatewayInFront(upstreamUrl, client, {
      now: () => gatewayNow(),
      async observe({ method, path, response }) {
        if (path !== '/.well-known/oauth-authorization-server')
          calls.push(`${method} ${path} ${response.status}`);
        if (response.status === 200 && path.startsWith('/api/2/oauth/'))
          latest = (await response.clone().json()) as typeof latest;
      },
    });
    ({ gateway } = inFront);
  });

  afterEach(async () => {
    await inFront.close();
    await server.close();
  });

  /**
   * "Sign in" in the dashboard: the gateway's login, then the upstream's pages in the browser.
   * Returns where the upstream sent the browser first: its sign-in page, or (when it still knows
   * the person) straight on towards the gateway's callback.
   */
  async function startSignIn(browser: Browser) {
    const login = await gateway.inject({ url: '/auth/login' });
    expect(login.statusCode).toBe(303);
    const loginCookie = cookieOf(login.headers['set-cookie'], LOGIN_COOKIE);
    const params = Object.fromEntries(new URL(String(login.headers.location)).searchParams);
    const start = await send(server, 'GET', authorizeUrl(params), { browser });
    return { params, loginCookie, upstreamLocation: start.location ?? '' };
  }

  async function signInThroughGateway(browser: Browser): Promise<string> {
    const { params, loginCookie, upstreamLocation } = await startSignIn(browser);
    expect(upstreamLocation.startsWith(PATHS.login)).toBe(true);
    // First party: the consent page sends the browser straight back, no click.
    const back = await decide(
      server,
      browser,
      await signIn(server, browser, params, username),
      'allow',
    );
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/auth/callback`);
    const callback = await gateway.inject({
      url: `${back.pathname}${back.search}`,
      headers: { cookie: loginCookie },
    });
    expect(callback.statusCode).toBe(303);
    return cookieOf(callback.headers['set-cookie'], SESSION_COOKIE);
  }

  async function signOut(cookie: string) {
    calls.length = 0;
    const answer = await gateway.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { ...fromDashboard, cookie },
    });
    expect(answer.statusCode).toBe(200);
    expect(await gateway.inject({ url: '/auth/session', headers: { cookie } })).toMatchObject({
      body: JSON.stringify({ signed_in: false }),
    });
  }

  /** SECURITY.md 32: the grant is over (no token the gateway held works) and so is the sign-in. */
  async function expectUpstreamSignedOut(browser: Browser) {
    expect((await api(server, 'GET', '/api/2/lists/', latest.access_token)).status).toBe(401);
    expect(
      (await refreshWith(server, client, latest.refresh_token, OAUTH_PATHS.refresh)).status,
    ).toBe(400);
    const next = await startSignIn(browser);
    expect(next.upstreamLocation, 'the next sign-in asks for the password').toMatch(
      new RegExp(`^${PATHS.login}`),
    );
  }

  it('refreshes first, then ends the grant and the upstream sign-in with the new token', async () => {
    const browser = new Browser();
    const cookie = await signInThroughGateway(browser);
    expect(
      (await gateway.inject({ url: '/api/2/lists/', headers: { ...fromDashboard, cookie } }))
        .statusCode,
    ).toBe(200);

    // Both clocks past the token's 15 minutes; nothing was asked meanwhile.
    serverClock.advance(PAST_EXPIRY_MS);
    await signOut(cookie);
    const made = [...calls];
    await expectUpstreamSignedOut(browser);
    expect(made).toEqual([`POST ${OAUTH_PATHS.refresh} 200`, 'POST /api/2/oauth/logout/ 200']);
  });

  it('when the clocks disagree, the upstream’s refusal makes the gateway refresh and sign out again', async () => {
    const browser = new Browser();
    const cookie = await signInThroughGateway(browser);
    // The gateway's clock stands still: by its reckoning the token is fresh; by the server's, expired.
    const gatewayTime = gatewayNow();
    gatewayNow = () => gatewayTime;
    serverClock.advance(PAST_EXPIRY_MS);
    await signOut(cookie);
    const made = [...calls];
    await expectUpstreamSignedOut(browser);
    expect(made).toEqual([
      'POST /api/2/oauth/logout/ 401',
      `POST ${OAUTH_PATHS.refresh} 200`,
      'POST /api/2/oauth/logout/ 200',
    ]);
  });

  it('within the token’s lifetime, signs out with the token it holds', async () => {
    const browser = new Browser();
    const cookie = await signInThroughGateway(browser);
    serverClock.advance(60_000);
    await signOut(cookie);
    expect(calls).toEqual(['POST /api/2/oauth/logout/ 200']);
    await expectUpstreamSignedOut(browser);
  });
});
