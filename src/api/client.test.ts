import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClientOptions } from './client.ts';
import { API_PREFIX } from './constants.ts';
import { ApiContractError, ApiError, RateLimitedError } from './errors.ts';
import { parseForm } from './form-encoding.ts';
import { OPERATIONS, type OperationName } from './operations.ts';
import { Account, AccountDetail } from './schemas/account.ts';
import { Administrator, AdministratorUpdate } from './schemas/administrator.ts';
import { Contact, ContactCreate } from './schemas/contact.ts';
import { List, ListCreate } from './schemas/list.ts';
import { Message } from './schemas/message.ts';
import {
  accountDetailFixture,
  accountFixture,
  administratorFixture,
  contactFixture,
  listFixture,
  messageFixture,
} from './test-support/fixtures.ts';

/**
 * The client against a real HTTP server (node:http on a free local port): what goes over the
 * wire is what a server sees, with no fetch mock in between. The server records every request and
 * answers with whatever the test sets in `reply`.
 */

interface Recorded {
  method: string;
  /** The raw request target, as sent: `/api/2/emails/a%2Bb%40x.org/?account_id=5`. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless `raw` is given. */
  json?: unknown;
  raw?: string;
}

let server: Server;
let origin: string;
let requests: Recorded[] = [];
let reply: (request: Recorded) => Reply = () => ({ json: {} });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', 'http://localhost');
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: target.pathname,
        query: target.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const answer = reply(recorded);
      res.writeHead(answer.status ?? 200, {
        'content-type': 'application/json',
        ...answer.headers,
      });
      res.end(answer.raw ?? JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
});

beforeEach(() => {
  requests = [];
  reply = () => ({ json: {} });
});

function client(options: Partial<ApiClientOptions> = {}) {
  return createApiClient({
    baseUrl: origin,
    auth: { kind: 'bearer', token: 'test-token' },
    ...options,
  });
}

function only(): Recorded {
  expect(requests).toHaveLength(1);
  return requests[0] as Recorded;
}

/** The rejection of `promise`, asserted to be one. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to fail, but it succeeded');
}

describe('paths (spec §1 rule 1, §4)', () => {
  it('sends every operation with its method, the /api/2 prefix and a trailing slash', async () => {
    const api = client();
    for (const [name, operation] of Object.entries(OPERATIONS)) {
      requests = [];
      // The answer is irrelevant here ({} fits few schemas): only the request is checked.
      await api
        .call(name as OperationName, { params: { id: 7, name: 'news' } })
        .catch(() => undefined);
      const request = only();
      const expected = `${API_PREFIX}${operation.path.replace(':id', '7').replace(':name', 'news')}`;
      expect([request.method, request.path], name).toEqual([operation.method, expected]);
      expect(request.path, name).toMatch(/\/$/);
    }
  });

  it('URL-encodes path segments: an address, a username with a slash', async () => {
    const api = client();
    await api.emails.get('a+b@x.org').catch(() => undefined);
    await api.users.get('o/neil@x.org').catch(() => undefined);
    expect(requests.map((r) => r.url)).toEqual([
      '/api/2/emails/a%2Bb%40x.org/',
      '/api/2/users/o%2Fneil%40x.org/',
    ]);
    // The server gets the very segment back: nothing was lost or double-encoded.
    const segment = (requests[0]?.path ?? '').split('/')[4] ?? '';
    expect(decodeURIComponent(segment)).toBe('a+b@x.org');
  });

  it('joins a base URL that ends with a slash or carries a path', async () => {
    await client({ baseUrl: `${origin}/` })
      .lists.list()
      .catch(() => undefined);
    await client({ baseUrl: `${origin}/proxy/` })
      .lists.list()
      .catch(() => undefined);
    expect(requests.map((r) => r.path)).toEqual(['/api/2/lists/', '/proxy/api/2/lists/']);
  });

  it('refuses to build a path with a missing segment', async () => {
    await expect(client().call('contacts.get', {})).rejects.toThrow(/Missing path parameter id/);
    expect(requests).toEqual([]);
  });
});

describe('authentication (spec §5.1)', () => {
  it('sends a Bearer key as is', async () => {
    await client({ auth: { kind: 'bearer', token: 'k3y.with-chars_~' } })
      .lists.list()
      .catch(() => undefined);
    expect(only().headers.authorization).toBe('Bearer k3y.with-chars_~');
  });

  it('sends a Basic key as the username with an empty password', async () => {
    await client({ auth: { kind: 'basic', key: 'abc123' } })
      .lists.list()
      .catch(() => undefined);
    const header = only().headers.authorization ?? '';
    expect(header).toBe(`Basic ${Buffer.from('abc123:').toString('base64')}`);
    const [username, password] = Buffer.from(header.replace(/^Basic /, ''), 'base64')
      .toString('utf8')
      .split(':');
    expect({ username, password }).toEqual({ username: 'abc123', password: '' });
  });

  it('sends no Authorization at all for `none` (a same-origin gateway adds its own)', async () => {
    await client({ auth: { kind: 'none' } })
      .lists.list()
      .catch(() => undefined);
    expect(only().headers).not.toHaveProperty('authorization');
  });

  it('asks an auth function before every request, so a refreshed token is used at once', async () => {
    let calls = 0;
    const api = client({
      auth: async () => {
        calls += 1;
        return { kind: 'bearer', token: `token-${calls}` };
      },
    });
    reply = () => ({ json: [] });
    await api.lists.list();
    await api.lists.list();
    await api.users.list();
    expect(calls).toBe(3);
    expect(requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-2',
      'Bearer token-3',
    ]);
  });

  it('asks for JSON', async () => {
    await client()
      .lists.list()
      .catch(() => undefined);
    expect(only().headers.accept).toBe('application/json');
  });
});

describe('account_id (spec §4.8)', () => {
  it('is added to every operation when set', async () => {
    const api = client({ accountId: 'acct-7' });
    for (const name of Object.keys(OPERATIONS) as OperationName[]) {
      await api.call(name, { params: { id: 1, name: 'news' } }).catch(() => undefined);
    }
    expect(requests).toHaveLength(Object.keys(OPERATIONS).length);
    for (const request of requests) {
      expect(request.query.getAll('account_id'), `${request.method} ${request.path}`).toEqual([
        'acct-7',
      ]);
    }
  });

  it('is added to the query of every request when set, beside the other parameters', async () => {
    const api = client({ accountId: 42 });
    await api.contacts.list({ search: 'smith', limit: 25 }).catch(() => undefined);
    await api.lists.create({ name: 'news' }).catch(() => undefined);
    await api.messages.delete(9).catch(() => undefined);
    await api.users.list().catch(() => undefined);
    for (const request of requests)
      expect(request.query.get('account_id'), `${request.method} ${request.path}`).toBe('42');
    expect(Object.fromEntries(requests[0]?.query ?? [])).toEqual({
      search: 'smith',
      limit: '25',
      account_id: '42',
    });
    // Never in the form body: the body schema would refuse it as an unknown field.
    expect(requests[1]?.body).toBe('name=news');
  });

  it('is absent when not set or null (an account key, or global users)', async () => {
    await client()
      .lists.list()
      .catch(() => undefined);
    await client({ accountId: null })
      .users.list()
      .catch(() => undefined);
    for (const request of requests) expect(request.query.has('account_id')).toBe(false);
  });
});

describe('bodies and queries (spec §1 rules 2 and 4)', () => {
  it('form-encodes a body: arrays as repeated keys, booleans as 1/0, null as empty', async () => {
    reply = () => ({ json: listFixture() });
    const body = {
      name: 'news',
      taboo_body: ['viagra', 'lottery win'],
      strip_attachments: true,
      archive_enabled: false,
      reply_to: null,
      subscriptions: 'open+confirm' as const,
    };
    await client().lists.create(body);
    const request = only();
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.body).toBe(
      'name=news&taboo_body=viagra&taboo_body=lottery+win&strip_attachments=1&archive_enabled=0&reply_to=&subscriptions=open%2Bconfirm',
    );
    // What the reference server will do with it: the same object back.
    expect(parseForm(ListCreate, new URLSearchParams(request.body))).toEqual({
      success: true,
      data: body,
    });
  });

  it('repeats emails and lists for a new contact', async () => {
    reply = () => ({ json: contactFixture() });
    await client().contacts.create({
      emails: ['a@x.org', 'b@x.org'],
      lists: ['news', 'staff'],
      firstname: 'Ann',
    });
    const form = new URLSearchParams(only().body);
    expect(form.getAll('emails')).toEqual(['a@x.org', 'b@x.org']);
    expect(form.getAll('lists')).toEqual(['news', 'staff']);
    expect(parseForm(ContactCreate, form).success).toBe(true);
  });

  it('sends key retrieval as get_key with the optional expiry_months', async () => {
    reply = () => ({ json: { key: 'new-key', expiry: '2025-01-01' } });
    await expect(client().users.retrieveKey(41, 3)).resolves.toEqual({
      key: 'new-key',
      expiry: '2025-01-01',
    });
    await client().users.retrieveKey(41);
    const [withExpiry, without] = requests;
    expect([withExpiry?.method, withExpiry?.path]).toEqual(['PUT', '/api/2/users/41/']);
    expect(parseForm(AdministratorUpdate, new URLSearchParams(withExpiry?.body))).toEqual({
      success: true,
      data: { get_key: true, expiry_months: 3 },
    });
    expect(parseForm(AdministratorUpdate, new URLSearchParams(without?.body))).toEqual({
      success: true,
      data: { get_key: true },
    });
  });

  it('sends GET and DELETE without a body', async () => {
    reply = () => ({ json: { success: 1 } });
    await client()
      .contacts.list({ orphans: true })
      .catch(() => undefined);
    await client().contacts.delete(7);
    for (const request of requests) {
      expect(request.body).toBe('');
      expect(request.headers['content-type']).toBeUndefined();
    }
    expect(requests[0]?.query.get('orphans')).toBe('1');
  });

  it('encodes query text that needs escaping', async () => {
    await client()
      .contacts.list({ search: 'a b&c=d+e', email: 'x+y@z.org' })
      .catch(() => undefined);
    const { query } = only();
    expect(query.get('search')).toBe('a b&c=d+e');
    expect(query.get('email')).toBe('x+y@z.org');
  });
});

describe('answers', () => {
  it('parses a single object, keeping unknown fields (custom contact fields)', async () => {
    reply = () => ({ json: contactFixture({ favourite_colour: 'blue' }) });
    const contact = await client().contacts.get(1);
    expect(contact).toEqual(Contact.parse(contactFixture({ favourite_colour: 'blue' })));
    expect(contact.favourite_colour).toBe('blue');
  });

  it('keeps unknown fields of nested and listed objects too', async () => {
    reply = () => ({ json: { data: [{ ...listFixture(), future_setting: 7 }] } });
    const [list] = await client().lists.list();
    expect(list?.future_setting).toBe(7);
  });

  it('parses a page (count, page, data)', async () => {
    reply = () => ({ json: { count: 1, page: 1, data: [messageFixture()] } });
    const page = await client().messages.list({ limit: 10 });
    expect(page).toEqual({ count: 1, page: 1, data: [Message.parse(messageFixture())] });
  });

  it('answers a DELETE and a message send with {success: 1}', async () => {
    reply = () => ({ json: { success: 1 } });
    await expect(client().lists.delete('news')).resolves.toEqual({ success: 1 });
    await expect(client().messages.send({ list: 'news', content_plain: 'Hi' })).resolves.toEqual({
      success: 1,
    });
  });

  describe('collections whose key the spec does not name (spec §4.4, §4.6, §4.7)', () => {
    const lists = [listFixture(), listFixture({ id: 4, name: 'staff' })];
    const expected = lists.map((list) => List.parse(list));

    it.each([
      ['{data: […]}', { data: lists }],
      ['{lists: […]}', { lists }],
      ['a bare array', lists],
    ])('lists.list accepts %s', async (_, json) => {
      reply = () => ({ json });
      await expect(client().lists.list()).resolves.toEqual(expected);
    });

    it('users.list accepts {users: […]}', async () => {
      reply = () => ({ json: { users: [administratorFixture()] } });
      await expect(client().users.list()).resolves.toEqual([
        Administrator.parse(administratorFixture()),
      ]);
    });

    it('accounts.list accepts a bare array (spec: "a JSON list")', async () => {
      reply = () => ({ json: [accountFixture()] });
      await expect(client().accounts.list()).resolves.toEqual([Account.parse(accountFixture())]);
    });

    it('refuses an object with two arrays: which one is the collection is unknowable', async () => {
      reply = () => ({ json: { lists, errors: [] } });
      await expect(client().lists.list()).rejects.toBeInstanceOf(ApiContractError);
    });
  });

  it.each([
    ['the account object', accountDetailFixture()],
    [
      '{account: {…}} (spec: "a JSON object containing a single account object")',
      { account: accountDetailFixture() },
    ],
  ])('accounts.get accepts %s', async (_, json) => {
    reply = () => ({ json });
    await expect(client().accounts.get(5)).resolves.toEqual(
      AccountDetail.parse(accountDetailFixture()),
    );
  });
});

describe('errors (spec §7, §8)', () => {
  // The reset time is counted from the machine's clock: the tests set it, on a month's and a
  // year's last minute, so the answer is exact and no day of the run changes it.
  const at = (iso: string) => vi.useFakeTimers({ toFake: ['Date'], now: new Date(iso) });
  afterEach(() => vi.useRealTimers());

  it.each([
    [400, 'name: has at most 64 characters'],
    [403, 'Authentication failed'],
    [404, 'Contact not found'],
    [409, 'A contact with this ccid already exists'],
  ])('turns a %i error body into an ApiError with the server message', async (status, message) => {
    reply = () => ({ status, json: { is_error: true, message } });
    const error = await rejectionOf(client().contacts.get(1));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(RateLimitedError);
    expect(error).not.toBeInstanceOf(ApiContractError);
    expect(error).toMatchObject({ status, message });
  });

  it('falls back to the status line when the error body is not the spec shape', async () => {
    reply = () => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      raw: '<h1>Bad gateway</h1>',
    });
    const error = await rejectionOf(client().lists.list());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, message: '502 Bad Gateway' });
  });

  it('turns 429 with Retry-After into a RateLimitedError that resets after that many seconds', async () => {
    reply = () => ({
      status: 429,
      headers: { 'retry-after': '120' },
      json: { is_error: true, message: 'Rate limit exceeded' },
    });
    at('2028-02-29T23:59:00.000Z');
    const error = await rejectionOf(client().contacts.list());
    expect(error).toBeInstanceOf(RateLimitedError);
    const limited = error as RateLimitedError;
    expect(limited).toMatchObject({ status: 429, message: 'Rate limit exceeded', limit: null });
    expect(limited.resetAt.toISOString()).toBe('2028-03-01T00:01:00.000Z');
  });

  it('prefers X-RateLimit-Reset (Unix seconds) and reads X-RateLimit-Limit', async () => {
    reply = () => ({
      status: 429,
      headers: {
        'retry-after': '5',
        'x-ratelimit-reset': '1900000000',
        'x-ratelimit-limit': '3000',
      },
      json: { is_error: true, message: 'Rate limit exceeded' },
    });
    const error = (await rejectionOf(client().lists.list())) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.resetAt.toISOString()).toBe(new Date(1_900_000_000_000).toISOString());
    expect(error.limit).toBe(3000);
  });

  it('assumes the next clock hour when a 429 names no reset time (spec §8 rule 3)', async () => {
    reply = () => ({ status: 429, json: { is_error: true, message: 'Rate limit exceeded' } });
    at('2027-12-31T23:59:30.500Z');
    const error = (await rejectionOf(client().lists.list())) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.resetAt.toISOString()).toBe('2028-01-01T00:00:00.000Z');
    at('2026-11-30T23:00:00.000Z');
    const onTheHour = (await rejectionOf(client().lists.list())) as RateLimitedError;
    expect(onTheHour.resetAt.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('turns a success answer outside the contract into an ApiContractError', async () => {
    reply = () => ({ json: { hello: 'world' } });
    const error = await rejectionOf(client().contacts.get(1));
    expect(error).toBeInstanceOf(ApiContractError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200 });
    expect((error as Error).message).toContain('GET /contacts/:id/');
    // The field is named, whether or not zod's English messages are loaded (english-messages.ts).
    expect((error as Error).message).toMatch(/does not match API v2 at id: /);
  });

  it('turns a non-JSON success answer into an ApiContractError', async () => {
    reply = () => ({ headers: { 'content-type': 'text/plain' }, raw: 'OK' });
    await expect(client().lists.get('news')).rejects.toBeInstanceOf(ApiContractError);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    // A port that was just free: listen, note it, close it, then call it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await rejectionOf(client({ baseUrl: `http://127.0.0.1:${port}` }).lists.list());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0 });
    expect((error as Error).cause).toBeDefined();
  });

  it('lets an abort through as an AbortError, not an ApiError', async () => {
    const error = await rejectionOf(client().call('lists.list', { signal: AbortSignal.abort() }));
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });
});
