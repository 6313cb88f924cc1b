import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import SqliteDatabase from 'better-sqlite3';
import { buildGateway, type GatewayOptions } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import type { Schedule } from './housekeeping.ts';
import { expectEachEncoding } from './test/encodings.ts';
import { PIXEL_GIF, imageHost } from './test/image-host.ts';
import { freshPostgresDatabase } from './test/session-databases.ts';
import { openSessionStore } from './open-session-store.ts';

/** A stand-in upstream: answers with `handler`, records what it received. */
async function standIn(
  handler: (
    request: IncomingMessage,
  ) => { status: number; headers?: Record<string, string>; body?: string } | null,
) {
  const received: { url: string; headers: IncomingMessage['headers'] }[] = [];
  const server: Server = createServer((request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers });
    const answer = handler(request);
    if (answer === null) return; // never answers: a slow upstream
    response
      .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
      .end(answer.body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => server.closeAllConnections() ?? server.close(() => resolve())),
  };
}

let dir: string;
const cleanups: (() => Promise<void> | void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-app-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function gatewayFor(
  upstreamUrl: string,
  env: Record<string, string> = {},
  options: Pick<GatewayOptions, 'now' | 'schedule'> = {},
) {
  const config = loadGatewayConfig({
    UPSTREAM_URL: upstreamUrl,
    DATA_DIR: dir,
    STATIC_DIR: path.join(dir, 'no-dist'),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://dash.example',
    UPSTREAM_TIMEOUT_SECONDS: '10',
    ...env,
  });
  const store = await openSessionStore(config);
  const app = await buildGateway({ config, store, ...options });
  cleanups.push(
    () => store.close(),
    () => app.close(),
  );
  return app;
}

const fromDashboard = { origin: 'https://dash.example', 'x-listkeeper-request': '1' };
/** OAuth sign-in offered (the stand-in upstream plays the authorization server where it must). */
const OAUTH_CLIENT = { UPSTREAM_CLIENT_ID: 'c', UPSTREAM_CLIENT_SECRET: 's' };

async function signIn(app: Awaited<ReturnType<typeof gatewayFor>>) {
  const answer = await app.inject({
    method: 'POST',
    url: '/auth/key',
    headers: { ...fromDashboard, 'content-type': 'application/json' },
    payload: JSON.stringify({ key: 'the-key' }),
  });
  expect(answer.statusCode).toBe(200);
  const cookie = String(answer.headers['set-cookie']);
  return { cookie: cookie.split(';')[0] ?? '', setCookie: cookie };
}

describe('the gateway over HTTP', () => {
  it('sets one __Host- cookie, HttpOnly, Secure, SameSite; the key never in the answer', async () => {
    const upstream = await standIn(() => ({ status: 403 }));
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url);
    const { setCookie } = await signIn(app);
    expect(setCookie).toMatch(
      /^__Host-listkeeper-session=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(upstream.received[0]?.headers.authorization).toBe('Bearer the-key');
    const session = await app.inject({
      url: '/auth/session',
      headers: { cookie: (await signIn(app)).cookie },
    });
    expect(session.json()).toMatchObject({ signed_in: true, method: 'key', global: false });
    expect(session.body).not.toContain('the-key');
  });

  it('a new sign-in in the same browser ends its previous session (SECURITY.md 25: a new id at sign-in)', async () => {
    const upstream = await standIn(() => ({ status: 403 }));
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url);
    const first = await signIn(app);
    const second = await app.inject({
      method: 'POST',
      url: '/auth/key',
      headers: { ...fromDashboard, cookie: first.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ key: 'another-key' }),
    });
    const cookie = String(second.headers['set-cookie']).split(';')[0] ?? '';
    expect(cookie).not.toBe(first.cookie);
    const session = (headers: Record<string, string>) =>
      app.inject({ url: '/auth/session', headers }).then((answer) => answer.json<unknown>());
    expect(await session({ cookie })).toMatchObject({ signed_in: true });
    expect(await session({ cookie: first.cookie })).toEqual({ signed_in: false });
  });

  it('forwards with its own Authorization, and passes status, body and rate-limit headers back unchanged', async () => {
    const upstream = await standIn((request) =>
      request.url?.startsWith('/api/2/accounts/')
        ? { status: 403 }
        : {
            status: 429,
            headers: {
              'retry-after': '120',
              'x-ratelimit-reset': '1800000000',
              'set-cookie': 'u=1',
            },
            body: '{"is_error":true,"message":"Over the limit"}',
          },
    );
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url);
    const { cookie } = await signIn(app);
    const answer = await app.inject({
      url: '/api/2/contacts/?limit=5',
      headers: {
        ...fromDashboard,
        cookie: `${cookie}; other=1`,
        authorization: 'Bearer forged',
        connection: 'keep-alive',
      },
    });
    expect(answer.statusCode).toBe(429);
    expect(answer.body).toBe('{"is_error":true,"message":"Over the limit"}');
    expect(answer.headers).toMatchObject({
      'retry-after': '120',
      'x-ratelimit-reset': '1800000000',
      'cache-control': 'no-store',
    });
    expect(answer.headers['set-cookie']).toBeUndefined();
    const forwarded = upstream.received.at(-1);
    expect(forwarded?.url).toBe('/api/2/contacts/?limit=5');
    expect(forwarded?.headers.authorization).toBe('Bearer the-key');
    expect(forwarded?.headers.cookie).toBeUndefined();
  });

  it("compresses the API's answers over 1 kB as the browser accepts", async () => {
    const page = JSON.stringify({
      data: Array.from({ length: 100 }, (_, id) => ({ id, firstname: `Contact ${id}` })),
      count: 100,
    });
    const upstream = await standIn((request) =>
      request.url === '/api/2/contacts/1/'
        ? { status: 200, body: '{"id":1}' }
        : { status: 200, body: page },
    );
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url);
    const { cookie } = await signIn(app);
    const get = (url: string, acceptEncoding?: string) =>
      app.inject({
        url,
        headers: {
          ...fromDashboard,
          cookie,
          ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        },
      });

    const brotli = await expectEachEncoding((accept) => get('/api/2/contacts/', accept), page);
    expect(brotli.headers['content-type']).toMatch(/^application\/json/);
    expect(brotli.headers['cache-control']).toBe('no-store');
    expect(brotli.rawPayload.length).toBeLessThan(page.length / 4);

    const small = await get('/api/2/contacts/1/', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('{"id":1}');
  });

  it('answers 502 when the upstream cannot be reached, 504 when it does not answer in time', async () => {
    const upstream = await standIn((request) =>
      request.url?.startsWith('/api/2/accounts/') ? { status: 403 } : null,
    );
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url, { UPSTREAM_TIMEOUT_SECONDS: '2' });
    const { cookie } = await signIn(app);
    const started = Date.now();
    const slow = await app.inject({ url: '/api/2/lists/', headers: { ...fromDashboard, cookie } });
    expect(slow.statusCode).toBe(504);
    expect(slow.json()).toEqual({
      is_error: true,
      message: 'The API server did not answer in time.',
    });
    expect(Date.now() - started).toBeLessThan(8_000);

    const down = await gatewayFor('http://127.0.0.1:9');
    const refused = await down.inject({
      method: 'POST',
      url: '/auth/key',
      headers: { ...fromDashboard, 'content-type': 'application/json' },
      payload: JSON.stringify({ key: 'k' }),
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({
      is_error: true,
      message: 'The API server cannot be reached.',
    });
  });

  it('a key the upstream refuses starts no session; a 401 later ends the session', async () => {
    let accept = true;
    const upstream = await standIn(() =>
      accept
        ? { status: 403 }
        : { status: 401, body: '{"is_error":true,"message":"Authentication failed"}' },
    );
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url);
    const { cookie } = await signIn(app);
    accept = false;
    const refused = await app.inject({
      url: '/api/2/lists/',
      headers: { ...fromDashboard, cookie },
    });
    expect(refused.statusCode).toBe(401);
    const after = await app.inject({ url: '/auth/session', headers: { cookie } });
    expect(after.json()).toEqual({ signed_in: false });
    const again = await app.inject({
      method: 'POST',
      url: '/auth/key',
      headers: { ...fromDashboard, 'content-type': 'application/json' },
      payload: JSON.stringify({ key: 'bad' }),
    });
    expect(again.statusCode).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('an OAuth callback without the state this browser started goes to the sign-in-failed page, no session', async () => {
    const upstream = await standIn(() => ({ status: 404 }));
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url, OAUTH_CLIENT);
    const login = await app.inject({ url: '/auth/login?next=/lists' });
    expect(login.statusCode).toBe(303);
    const state = new URL(String(login.headers.location)).searchParams.get('state');
    // Another browser (no login cookie) brings the code back.
    const stolen = await app.inject({
      url: `/auth/callback?code=x&state=${state}&iss=${encodeURIComponent(upstream.url)}`,
    });
    expect(stolen.statusCode).toBe(303);
    expect(stolen.headers.location).toBe('/auth/sign-in-failed');
    expect(stolen.headers['set-cookie']).toBeUndefined();
    expect(upstream.received.some((r) => r.url.startsWith('/api/2/oauth/token/'))).toBe(false);
  });

  it('mints a new login cookie at every sign-in, never one the browser brings (login CSRF, issue 28 item 2)', async () => {
    const upstream = await standIn(() => ({ status: 404 }));
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url, OAUTH_CLIENT);
    // A value another site managed to set (or one the attacker's own sign-in was bound to).
    const planted = 'P'.repeat(43);
    const login = await app.inject({
      url: '/auth/login',
      headers: { cookie: `__Host-listkeeper-login=${planted}` },
    });
    expect(login.statusCode).toBe(303);
    const minted = /^__Host-listkeeper-login=([^;]*);/.exec(
      String(login.headers['set-cookie']),
    )?.[1];
    expect(minted).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(minted).not.toBe(planted);
    // The sign-in it started is bound to the new value only: under the planted one its callback fails.
    const state = new URL(String(login.headers.location)).searchParams.get('state');
    const callback = await app.inject({
      url: `/auth/callback?code=x&state=${state}&iss=${encodeURIComponent(upstream.url)}`,
      headers: { cookie: `__Host-listkeeper-login=${planted}` },
    });
    expect(callback.headers.location).toBe('/auth/sign-in-failed');
    expect(upstream.received.some((r) => r.url.startsWith('/api/2/oauth/token/'))).toBe(false);
  });
});

describe('what anyone can make the gateway store (issue 28 item 2)', () => {
  /** Rows of a table of the gateway's SQLite file, as another process reads them. */
  function rows(table: 'gateway_logins' | 'gateway_sessions'): number {
    const db = new SqliteDatabase(path.join(dir, 'gateway.db'), { readonly: true });
    try {
      return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  }

  it('keeps 100 pending sign-ins per address: a flood pushes out only its own oldest, the newest always starts', async () => {
    // Refuses every code: whether the callback got as far as the token request is what counts.
    const upstream = await standIn(() => ({ status: 400, body: '{"error":"invalid_grant"}' }));
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url, OAUTH_CLIENT);
    const start = async (remoteAddress: string) => {
      const login = await app.inject({ url: '/auth/login', remoteAddress });
      return {
        state: new URL(String(login.headers.location)).searchParams.get('state') ?? '',
        cookie: String(login.headers['set-cookie']).split(';')[0] ?? '',
      };
    };
    /** Whether the callback found its pending sign-in, so that it redeemed the code. */
    const redeems = async ({ state, cookie }: { state: string; cookie: string }) => {
      const before = upstream.received.length;
      await app.inject({
        url: `/auth/callback?code=x&state=${state}&iss=${encodeURIComponent(upstream.url)}`,
        headers: { cookie },
      });
      return upstream.received.slice(before).some((r) => r.url.startsWith('/api/2/oauth/token/'));
    };

    const person = await start('198.51.100.7');
    const flood = [];
    for (let i = 0; i < 110; i += 1) flood.push(await start('203.0.113.66'));
    expect(rows('gateway_logins')).toBe(101);
    expect(await redeems(flood[9]!)).toBe(false);
    expect(await redeems(flood[10]!)).toBe(true);
    expect(await redeems(flood[109]!)).toBe(true);
    expect(await redeems(person)).toBe(true);
  });

  it('purges ended sessions and abandoned sign-ins on a timer of its own, stopped on close', async () => {
    const upstream = await standIn(() => ({ status: 403 }));
    cleanups.push(upstream.close);
    let time = Date.now();
    const timers: { task: () => Promise<void>; everyMs: number; stopped: boolean }[] = [];
    const schedule: Schedule = (task, everyMs) => {
      const timer = { task, everyMs, stopped: false };
      timers.push(timer);
      return () => {
        timer.stopped = true;
      };
    };
    const app = await gatewayFor(upstream.url, OAUTH_CLIENT, { now: () => time, schedule });
    expect(timers.map((timer) => [timer.everyMs, timer.stopped])).toEqual([[60_000, false]]);
    const purge = () => timers[0]!.task();

    await app.inject({ url: '/auth/login' });
    await app.inject({ url: '/auth/login' });
    await signIn(app);
    expect([rows('gateway_logins'), rows('gateway_sessions')]).toEqual([2, 1]);
    // Ten minutes on, the sign-ins were abandoned; the session (8 hours idle) lives.
    time += 10 * 60_000;
    await purge();
    expect([rows('gateway_logins'), rows('gateway_sessions')]).toEqual([0, 1]);
    time += 8 * 60 * 60_000;
    await purge();
    expect(rows('gateway_sessions')).toBe(0);

    await app.close();
    expect(timers[0]?.stopped).toBe(true);
  });
});

describe('sessions in PostgreSQL (GATEWAY_DATABASE_URL)', () => {
  it.skipIf(!inject('pgUrl'))(
    'are shared by gateways on different machines (no shared DATA_DIR), and end for all at once',
    async () => {
      const upstream = await standIn(() => ({ status: 403 }));
      cleanups.push(upstream.close);
      const database = await freshPostgresDatabase();
      // Cleanups run last first: the database goes after both gateways closed.
      cleanups.push(database.drop);
      const env = { GATEWAY_DATABASE_URL: database.url, SESSION_SECRET: 's'.repeat(32) };
      const first = await gatewayFor(upstream.url, env);
      // Another machine: its own DATA_DIR, the same database and secret.
      const firstDir = dir;
      dir = mkdtempSync(path.join(tmpdir(), 'gateway-app-other-'));
      const otherDir = dir;
      const second = await gatewayFor(upstream.url, env);
      cleanups.push(() => rmSync(firstDir, { recursive: true, force: true }));
      const { cookie } = await signIn(first);
      expect(
        (await second.inject({ url: '/auth/session', headers: { cookie } })).json(),
      ).toMatchObject({ signed_in: true });
      expect(
        (
          await second.inject({
            method: 'POST',
            url: '/auth/logout',
            headers: { ...fromDashboard, cookie },
          })
        ).statusCode,
      ).toBe(200);
      expect((await first.inject({ url: '/auth/session', headers: { cookie } })).json()).toEqual({
        signed_in: false,
      });
      expect(existsSync(path.join(otherDir, 'gateway.db'))).toBe(false);
    },
  );
});

describe("the gateway's image proxy", () => {
  it("fetches an image the message refers to, reading the message with the session's credential; refuses any other", async () => {
    const host = await imageHost();
    const port = new URL(host.origin).port;
    const own = `${host.origin}/pixel/gateway-own.gif`;
    const html = `<p>Hi</p><img src="${own}"><img src="http://127.0.0.2:${port}/pixel/gateway-private.gif"><img src="http://10.0.0.1/x.gif">`;
    const upstream = await standIn((request) => {
      if (request.url?.startsWith('/api/2/accounts/')) return { status: 403 };
      if (request.url === '/api/2/messages/7/?account_id=3')
        return { status: 200, body: JSON.stringify({ id: 7, content_html: html }) };
      return { status: 404, body: '{"is_error":true,"message":"Message not found"}' };
    });
    cleanups.push(upstream.close);
    const app = await gatewayFor(upstream.url, { IMAGE_PROXY_ALLOW_PRIVATE: '127.0.0.1/32' });
    const { cookie } = await signIn(app);
    const image = (
      url: string,
      message = '7',
      headers: Record<string, string> = { ...fromDashboard, cookie },
    ) =>
      app.inject({
        url: `/gateway/message-image?message=${message}&account_id=3&url=${encodeURIComponent(url)}`,
        headers,
      });

    const shown = await image(own);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      url: own,
      data_url: `data:image/gif;base64,${PIXEL_GIF.toString('base64')}`,
    });
    expect(upstream.received.at(-1)?.headers.authorization).toBe('Bearer the-key');
    expect(host.hits.get('/pixel/gateway-own.gif')).toBe(1);

    // Not the message's own: refused before any request to it.
    const other = await image(`${host.origin}/pixel/gateway-other.gif`);
    expect([other.statusCode, other.json()]).toEqual([
      400,
      { is_error: true, message: 'url: is not an address this message refers to' },
    ]);
    expect(host.hits.get('/pixel/gateway-other.gif')).toBeUndefined();

    // The message's own, but private: refused (only 127.0.0.1 is allowed here).
    for (const url of [
      `http://127.0.0.2:${port}/pixel/gateway-private.gif`,
      'http://10.0.0.1/x.gif',
    ]) {
      const refused = await image(url);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json<{ message: string }>().message, url).toMatch(
        /private, loopback or reserved/,
      );
    }

    // The upstream's answer about the message is the browser's: another account's message is not found.
    const missing = await image(own, '8');
    expect([missing.statusCode, missing.json()]).toEqual([
      404,
      { is_error: true, message: 'Message not found' },
    ]);
    // Checked like any API path: no header, no session, a message id that is not one segment.
    expect((await image(own, '7', { cookie })).statusCode).toBe(403);
    expect((await image(own, '7', fromDashboard)).statusCode).toBe(401);
    expect((await image(own, '..%2F..%2Fcontacts')).statusCode).toBe(400);
    expect(host.hits.get('/pixel/gateway-own.gif')).toBe(1);
  });
});
