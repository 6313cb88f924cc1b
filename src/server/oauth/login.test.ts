import { afterAll, beforeAll, expect, it } from 'vitest';
import { clockFrom } from '../lib/clock.ts';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import { testClock } from '../test/test-clock.ts';
import type { CreatedClient } from './clients.service.ts';
import { SESSION_COOKIE } from './cookies.ts';
import {
  Browser,
  PASSWORD,
  api,
  authorizeUrl,
  createPerson,
  csrfOf,
  hiddenFieldsOf,
  obtainTokens,
  registerClient,
  requestParams,
  send,
  signIn,
} from './oauth-test-support.ts';
import { OAUTH_PAGE_PATHS as PATHS } from './paths.ts';
import { LOGIN_WINDOW_SECONDS } from './sessions.service.ts';

describeEachDialect('OAuth sign-in and sign-out', (dialect) => {
  let server: TestServer;
  let client: CreatedClient;
  let username: string;

  beforeAll(async () => {
    // The counts are kept per fixed window (SECURITY.md 7): the server's clock starts at the start
    // of one, so that every throttling test here counts in that one, whatever the time of day.
    const now = testClock().now().getTime();
    const windowStart = now - (now % (LOGIN_WINDOW_SECONDS * 1000));
    server = await startTestServer(dialect, {
      trustProxy: '127.0.0.1',
      clock: clockFrom(new Date(windowStart)),
    });
    client = await registerClient(server);
    username = (await createPerson(server)).username;
  });
  afterAll(() => server.close());

  /** Opens the sign-in page in a new browser: the form's fields, ready to post. */
  async function openForm(browser: Browser): Promise<URLSearchParams> {
    const page = await send(server, 'GET', authorizeUrl(requestParams(client), PATHS.login), { browser });
    expect(page.status).toBe(200);
    return hiddenFieldsOf(page.body);
  }

  // SECURITY.md 7 and 24.
  it('serves the sign-in page with labelled fields, a CSRF token and the page security headers', async () => {
    const page = await send(server, 'GET', authorizeUrl(requestParams(client), PATHS.login));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toMatch(/<label for="username">Username<\/label>\s*<input id="username"[^>]* name="username"/);
    expect(page.body).toMatch(/<label for="password">Password<\/label>\s*<input id="password" type="password"[^>]* name="password"/);
    expect(csrfOf(page.body)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // No script and no inline style: the CSP forbids both.
    expect(page.body).not.toMatch(/<script|style=|<style/);
    expect(page.body).toContain('<html lang="en">');
  });

  it('sets an HttpOnly, SameSite=Lax session cookie scoped to the OAuth pages, Secure under https', async () => {
    const plain = await send(server, 'GET', authorizeUrl(requestParams(client), PATHS.login));
    const cookie = String(plain.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; `));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/api/2/oauth/');
    expect(cookie).not.toContain('Secure');

    const https = await send(server, 'GET', authorizeUrl(requestParams(client), PATHS.login), {
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '127.0.0.1',
    });
    expect(String(https.headers['set-cookie'])).toMatch(/; Secure$/);
  });

  it('refuses a sign-in without the CSRF token, or with another session’s', async () => {
    const victim = new Browser();
    const form = await openForm(victim);
    form.set('username', username);
    form.set('password', PASSWORD);

    const withoutToken = new URLSearchParams(form);
    withoutToken.delete('csrf_token');
    const missing = await send(server, 'POST', PATHS.login, { browser: victim, form: withoutToken });
    expect(missing.status).toBe(403);
    expect(missing.headers['set-cookie']).toBeUndefined();

    const attacker = new Browser();
    const attackerForm = await openForm(attacker);
    const forged = new URLSearchParams(form);
    forged.set('csrf_token', attackerForm.get('csrf_token') ?? '');
    const crossed = await send(server, 'POST', PATHS.login, { browser: victim, form: forged });
    expect(crossed.status).toBe(403);

    const noCookie = await send(server, 'POST', PATHS.login, { form });
    expect(noCookie.status).toBe(403);
  });

  it('signs in with the right password, replacing the pre-session cookie (no fixation)', async () => {
    const browser = new Browser();
    const form = await openForm(browser);
    const preSession = browser.cookie;
    form.set('username', username);
    form.set('password', 'wrong password, surely');
    const wrong = await send(server, 'POST', PATHS.login, { browser, form });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatch(/role="alert"[^>]*>The username or the password is not correct/);
    expect(wrong.body).toContain(`value="${username}"`);

    form.set('password', PASSWORD);
    const right = await send(server, 'POST', PATHS.login, { browser, form });
    expect(right.status).toBe(303);
    expect(right.location?.startsWith(`${PATHS.consent}?`)).toBe(true);
    expect(browser.cookie).toBeDefined();
    expect(browser.cookie).not.toBe(preSession);

    // The pre-session's cookie does not open the consent page.
    const stale = new Browser();
    stale.cookie = preSession;
    const withStale = await send(server, 'GET', right.location ?? '', { browser: stale });
    expect(withStale.status).toBe(303);
    expect(withStale.location?.startsWith(PATHS.login)).toBe(true);
  });

  it('signs in an administrator created through the API with a password', async () => {
    const created = await server.request('POST', '/api/2/users/', {
      form: { username: 'api-made@example.com', password: PASSWORD, permissions: ['contact'] },
    });
    expect(created.status).toBe(200);
    const browser = new Browser('198.51.100.50');
    const consentUrl = await signIn(server, browser, requestParams(client), 'api-made@example.com');
    expect(consentUrl.startsWith(`${PATHS.consent}?`)).toBe(true);
  });

  it('does not sign in an unknown username', async () => {
    const browser = new Browser('198.51.100.99');
    const form = await openForm(browser);
    form.set('username', 'nobody@example.com');
    form.set('password', PASSWORD);
    expect((await send(server, 'POST', PATHS.login, { browser, form })).status).toBe(400);
  });

  // SECURITY.md 7: failed sign-ins are throttled per username and address.
  it('answers 429 after five failures for a username from one address, even with the right password', async () => {
    const person = await createPerson(server);
    const browser = new Browser('198.51.100.1');
    const form = await openForm(browser);
    form.set('username', person.username);
    form.set('password', 'not the password');
    for (let i = 0; i < 5; i += 1) expect((await send(server, 'POST', PATHS.login, { browser, form })).status).toBe(400);
    form.set('password', PASSWORD);
    const throttled = await send(server, 'POST', PATHS.login, { browser, form });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.body).toMatch(/role="alert"[^>]*>Too many sign-in attempts/);
    expect(throttled.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    // Another address is not throttled for it.
    const other = new Browser('198.51.100.2');
    const otherForm = await openForm(other);
    otherForm.set('username', person.username);
    otherForm.set('password', PASSWORD);
    expect((await send(server, 'POST', PATHS.login, { browser: other, form: otherForm })).status).toBe(303);
  });

  // Issue 16 finding 12: the form costs the server nothing to show.
  it('stores nothing for showing the sign-in form, and its stateless form still works', async () => {
    const count = async () =>
      Number((await server.database.db.selectFrom('oauth_sessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    for (let i = 0; i < 5; i += 1) await openForm(new Browser('198.51.100.60'));
    expect(await count()).toBe(before);

    // The form shown by one process is accepted by another (nothing of it lives in either).
    const peer = { ...server, app: await server.startPeer() };
    const browser = new Browser('198.51.100.61');
    const form = await openForm(browser);
    form.set('username', username);
    form.set('password', PASSWORD);
    const posted = await send(peer, 'POST', PATHS.login, { browser, form });
    expect(posted.status).toBe(303);
    expect(await count()).toBe(before + 1);
  });

  // Issue 16 finding 12: spraying usernames from one address, or one username from many addresses.
  it('answers 429 after twenty failures from one address whatever the usernames, counted across processes', async () => {
    const peer = { ...server, app: await server.startPeer() };
    const browser = new Browser('198.51.100.70');
    const form = await openForm(browser);
    form.set('password', 'not the password');
    for (let i = 0; i < 20; i += 1) {
      form.set('username', `sprayed${i}@example.com`);
      const answer = await send(i % 2 === 0 ? server : peer, 'POST', PATHS.login, { browser, form });
      expect(answer.status).toBe(400);
    }
    form.set('username', username);
    form.set('password', PASSWORD);
    const throttled = await send(peer, 'POST', PATHS.login, { browser, form });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Another address signs in as before.
    const other = new Browser('198.51.100.71');
    const otherForm = await openForm(other);
    otherForm.set('username', username);
    otherForm.set('password', PASSWORD);
    expect((await send(server, 'POST', PATHS.login, { browser: other, form: otherForm })).status).toBe(303);
  });

  it('answers 429 after twenty failures for one username from many addresses; successes do not count', async () => {
    const person = await createPerson(server);
    const attempt = async (address: string, password: string) => {
      const browser = new Browser(address);
      const form = await openForm(browser);
      form.set('username', person.username);
      form.set('password', password);
      return (await send(server, 'POST', PATHS.login, { browser, form })).status;
    };
    for (let i = 0; i < 10; i += 1) expect(await attempt(`192.0.2.${i + 1}`, PASSWORD)).toBe(303);
    for (let i = 0; i < 20; i += 1) expect(await attempt(`192.0.2.${i + 100}`, 'not the password')).toBe(400);
    expect(await attempt('192.0.2.200', PASSWORD)).toBe(429);
  });

  it('counts parallel guesses atomically: at most five are checked', async () => {
    const person = await createPerson(server);
    const browser = new Browser('198.51.100.3');
    const form = await openForm(browser);
    form.set('username', person.username);
    form.set('password', 'not the password');
    // All twenty fall in the window the server's clock started in (beforeAll): none is counted in the next.
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(server, 'POST', PATHS.login, { browser, form })));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
  });

  it('signs out with the page’s form: the cookie is cleared and the grants given in the session revoked', async () => {
    const browser = new Browser();
    const tokens = await obtainTokens(server, { client, username, browser });
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(200);

    const page = await send(server, 'GET', PATHS.logout, { browser });
    expect(page.status).toBe(200);
    expect(page.body).toContain(username);
    const form = hiddenFieldsOf(page.body);

    const forged = await send(server, 'POST', PATHS.logout, { browser, form: { csrf_token: 'forged' } });
    expect(forged.status).toBe(403);
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(200);

    const out = await send(server, 'POST', PATHS.logout, { browser, form });
    expect(out.status).toBe(200);
    expect(out.body).toContain('You are signed out');
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect(browser.cookie).toBeUndefined();

    const refused = await api(server, 'GET', '/api/2/contacts/', tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ is_error: true, message: 'Authentication failed' });
    const next = await send(server, 'GET', authorizeUrl(requestParams(client)), { browser });
    expect(next.location?.startsWith(PATHS.login)).toBe(true);
  });

  it('“Not you?” on the consent page signs out and returns to the sign-in form for the same request', async () => {
    const browser = new Browser();
    const params = requestParams(client);
    const consentUrl = await signIn(server, browser, params, username);
    const page = await send(server, 'GET', consentUrl, { browser });
    const logoutForm = page.body.slice(page.body.indexOf(`action="${PATHS.logout}"`));
    const fields = hiddenFieldsOf(`<form ${logoutForm}`);
    const out = await send(server, 'POST', PATHS.logout, { browser, form: fields });
    expect(out.status).toBe(303);
    expect(out.location?.startsWith(`${PATHS.login}?`)).toBe(true);
    expect(browser.cookie).toBeUndefined();
  });

  it('signs out an application with its access token: grant and login session end', async () => {
    const browser = new Browser();
    const tokens = await obtainTokens(server, { client, username, browser });
    const out = await send(server, 'POST', PATHS.logout, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ success: 1 });
    expect((await api(server, 'GET', '/api/2/contacts/', tokens.access_token)).status).toBe(401);
    const next = await send(server, 'GET', authorizeUrl(requestParams(client)), { browser });
    expect(next.location?.startsWith(PATHS.login)).toBe(true);

    const again = await send(server, 'POST', PATHS.logout, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(again.status).toBe(401);
  });
});
