import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../api/primitives.ts';
import { Administrator, RetrievedKey } from '../api/schemas/administrator.ts';
import { MessageImage, MessagePage } from '../api/schemas/message.ts';
import {
  describeEachDialect,
  startTestServer,
  type TestResponse,
  type TestServer,
} from './test/harness.ts';
import { PIXEL_GIF, imageHost, type ImageHost } from '../gateway/test/image-host.ts';

/**
 * The image proxy, a reference-server extension (operations.ts `messages.image`): the dashboard
 * shows a message's remote images after "show images" as data: URLs (SECURITY.md 13, 24).
 */

const GIF_DATA_URL = `data:image/gif;base64,${PIXEL_GIF.toString('base64')}`;
const asError = (response: TestResponse) => ErrorBody.parse(response.json);

describeEachDialect('the image proxy (extension messages.image)', (dialect) => {
  let server: TestServer;
  let host: ImageHost;

  /** Sends a message with this HTML to `list` and answers its id. */
  async function messageWith(
    html: string,
    list = 'news',
    key = server.accountKey,
  ): Promise<string> {
    const subject = `Images ${Math.random()}`;
    const sent = await server.request('POST', '/api/2/messages/', {
      key,
      form: { list, subject, content_html: html },
    });
    expect(sent.status, sent.body).toBe(200);
    const page = MessagePage.parse(
      (await server.request('GET', '/api/2/messages/', { key, query: { limit: 100 } })).json,
    );
    const message = page.data.find((m) => m.subject === subject);
    if (!message) throw new Error('the sent message is not in the archive');
    return String(message.id);
  }

  const image = (id: string, url: string, key?: string) =>
    server.request('GET', `/api/2/messages/${id}/images/`, { key, query: { url } });
  const hits = (path: string) => host.hits.get(path) ?? 0;

  beforeAll(async () => {
    host = await imageHost();
    server = await startTestServer(dialect);
    for (const name of ['news', 'other']) {
      const created = await server.request('POST', '/api/2/lists/', { form: { name } });
      expect(created.status, created.body).toBe(200);
    }
  });
  afterAll(() => server.close());

  it('answers an image the message shows as a data: URL, charging one object', async () => {
    const url = `${host.origin}/pixel/${dialect}-shown.gif`;
    const id = await messageWith(`<p>Hi</p><img src="${url}" alt="">`);
    const before = Number(
      (await server.request('GET', `/api/2/messages/${id}/`)).headers['x-ratelimit-remaining'],
    );
    const response = await image(id, url);
    expect(response.status, response.body).toBe(200);
    expect(MessageImage.parse(response.json)).toEqual({ url, data_url: GIF_DATA_URL });
    expect(Number(response.headers['x-ratelimit-remaining'])).toBe(before - 1);
    expect(hits(`/pixel/${dialect}-shown.gif`)).toBe(1);
  });

  it('finds an address written with character references, as a browser reads the attribute', async () => {
    const url = `${host.origin}/pixel/${dialect}-query.gif?a=1&b=2`;
    const id = await messageWith(`<img src="${url.replace('&', '&amp;')}" alt="">`);
    const response = await image(id, url);
    expect(response.status, response.body).toBe(200);
  });

  it('refuses an address the message does not hold, without fetching it (no open relay)', async () => {
    const id = await messageWith(`<img src="${host.origin}/pixel/${dialect}-one.gif" alt="">`);
    const response = await image(id, `${host.origin}/pixel/${dialect}-other.gif`);
    expect(response.status).toBe(400);
    expect(asError(response).message).toBe('url: is not an address this message refers to');
    expect(hits(`/pixel/${dialect}-other.gif`)).toBe(0);
  });

  it('refuses other schemes and a missing url with 400', async () => {
    const id = await messageWith(
      '<a href="javascript:alert(1)">x</a><img src="data:image/gif;base64,AA==" alt="">',
    );
    for (const query of [
      { url: 'javascript:alert(1)' },
      { url: 'data:image/gif;base64,AA==' },
      {},
    ]) {
      const response = await server.request('GET', `/api/2/messages/${id}/images/`, { query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(asError(response).message).toMatch(/^url: /);
    }
  });

  it('answers 502 when the remote host delivers no image', async () => {
    const page = `${host.origin}/page`;
    const missing = `${host.origin}/missing`;
    const id = await messageWith(`<img src="${page}" alt=""><img src="${missing}" alt="">`);
    for (const url of [page, missing]) {
      const response = await image(id, url);
      expect(response.status, url).toBe(502);
      expect(asError(response).message).toMatch(/^The image could not be fetched: /);
    }
  });

  it('answers 404 for an unknown message or one of another account, whose image is not fetched', async () => {
    const url = `${host.origin}/pixel/${dialect}-elsewhere.gif`;
    const other = await server.createAccount(`img-${dialect}`);
    const otherKey = await server.createKey({ accountId: other.id, permissions: ['superadmin'] });
    expect(
      (await server.request('POST', '/api/2/lists/', { key: otherKey, form: { name: 'news' } }))
        .status,
    ).toBe(200);
    const id = await messageWith(`<img src="${url}" alt="">`, 'news', otherKey);
    expect((await image(id, url)).status).toBe(404);
    expect((await image('999999', url)).status).toBe(404);
    expect(hits(`/pixel/${dialect}-elsewhere.gif`)).toBe(0);
    expect((await image(id, url, otherKey)).status).toBe(200);
  });

  it('is limited to the lists of a limit_lists key', async () => {
    const url = `${host.origin}/pixel/${dialect}-limited.gif`;
    const id = await messageWith(`<img src="${url}" alt="">`, 'other');
    const user = await server.request('POST', '/api/2/users/', {
      form: {
        username: `mod-${dialect}@example.org`,
        permissions: ['messages', 'limit_lists'],
        limit_lists: ['news'],
      },
    });
    const userId = String(Administrator.parse(user.json).id);
    const key = RetrievedKey.parse(
      (await server.request('PUT', `/api/2/users/${userId}/`, { form: { get_key: true } })).json,
    ).key;
    expect((await image(id, url, key)).status).toBe(404);
    expect(hits(`/pixel/${dialect}-limited.gif`)).toBe(0);
  });

  it('fetches nothing past the hourly allowance: charged before the fetch (spec §8)', async () => {
    const url = `${host.origin}/pixel/${dialect}-budget.gif`;
    const account = await server.createAccount(`budget-${dialect}`, { maxContacts: 2 });
    const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    expect(
      (await server.request('POST', '/api/2/lists/', { key, form: { name: 'news' } })).status,
    ).toBe(200);
    const id = await messageWith(`<img src="${url}" alt="">`, 'news', key);
    // Use up the rest of the allowance (3 × 2 objects an hour).
    let status = 200;
    for (let i = 0; i < 6 && status !== 429; i += 1) {
      status = (await server.request('GET', `/api/2/messages/${id}/`, { key })).status;
    }
    expect(status).toBe(429);
    const response = await image(id, url, key);
    expect(response.status).toBe(429);
    expect(hits(`/pixel/${dialect}-budget.gif`)).toBe(0);
  });
});

describe('the image proxy without IMAGE_PROXY_ALLOW_PRIVATE', () => {
  let server: TestServer;
  let host: ImageHost;
  beforeAll(async () => {
    host = await imageHost();
    server = await startTestServer('sqlite', { imageProxyAllowPrivate: false });
    await server.request('POST', '/api/2/lists/', { form: { name: 'news' } });
  });
  afterAll(() => server.close());

  it('refuses a loopback address with 400 and sends it no request', async () => {
    const url = `${host.origin}/pixel/closed.gif`;
    await server.request('POST', '/api/2/messages/', {
      form: { list: 'news', content_html: `<img src="${url}">` },
    });
    const [message] = MessagePage.parse(
      (await server.request('GET', '/api/2/messages/')).json,
    ).data;
    const response = await server.request('GET', `/api/2/messages/${String(message?.id)}/images/`, {
      query: { url },
    });
    expect(response.status).toBe(400);
    expect(asError(response).message).toMatch(
      /^url: 127\.0\.0\.1:\d+ is a private, loopback or reserved address/,
    );
    expect(host.hits.get('/pixel/closed.gif') ?? 0).toBe(0);
  });

  it('refuses IPv6 addresses that embed or reach an internal IPv4 or stay on site (issue 16 finding 13)', async () => {
    const addresses = {
      'IPv4-compatible ::/96': '::7f00:1',
      'IPv4-compatible, private': '::a00:1',
      'IPv4-mapped': '::ffff:127.0.0.1',
      'IPv4-translated': '::ffff:0:7f00:1',
      'NAT64 64:ff9b::/96': '64:ff9b::7f00:1',
      'NAT64 local-use 64:ff9b:1::/48': '64:ff9b:1::a00:1',
      '6to4 2002::/16': '2002:7f00:1::1',
      'Teredo 2001::/32': '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'unique-local fc00::/7': 'fd12:3456::1',
      'link-local fe80::/10': 'fe80::1',
    };
    const urls = Object.values(addresses).map((address) => `http://[${address}]/pixel.gif`);
    await server.request('POST', '/api/2/messages/', {
      form: { list: 'news', subject: 'ipv6', content_html: urls.map((url) => `<img src="${url}">`).join('') },
    });
    const message = MessagePage.parse((await server.request('GET', '/api/2/messages/')).json).data.find(
      (m) => m.subject === 'ipv6',
    );
    for (const [what, address] of Object.entries(addresses)) {
      const response = await server.request('GET', `/api/2/messages/${String(message?.id)}/images/`, {
        query: { url: `http://[${address}]/pixel.gif` },
      });
      expect(response.status, `${what}: ${response.body}`).toBe(400);
      expect(asError(response).message, what).toMatch(/is a private, loopback or reserved address/);
    }
  });
});
