import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTHENTICATION_FAILED } from '../../api/constants.ts';
import { Administrator, RetrievedKey } from '../../api/schemas/administrator.ts';
import { AUTH_CACHE_SECONDS, createAuthCache, type KeyGrant } from '../auth/auth-cache.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';
import { steppedClock, type SteppedClock } from './test-clock.ts';

/**
 * The cache of keys and accounts (auth/auth-cache.ts) never lets a revoked, limited or expired key
 * act in the process that made the change, and lets another process trust it for at most
 * AUTH_CACHE_SECONDS.
 */

const LISTS = '/api/2/lists/';
const CONTACTS = '/api/2/contacts/';
const USERS = '/api/2/users/';

describeEachDialect('the authentication cache', (dialect) => {
  let server: TestServer;
  let clock: SteppedClock;

  beforeAll(async () => {
    clock = steppedClock();
    server = await startTestServer(dialect, { clock });
  });
  afterAll(() => server.close());
  afterEach(() => vi.useRealTimers());

  let sequence = 0;
  /** A new administrator of acme and a key of theirs, both made through the API (spec §4.6). */
  async function keyOf(permissions: string[], expiryMonths?: number): Promise<{ id: string; key: string }> {
    sequence += 1;
    const created = await server.request('POST', USERS, { form: { username: `cache${sequence}@acme.example`, permissions } });
    expect(created.status, created.body).toBe(200);
    const id = String(Administrator.parse(created.json).id);
    const form: Record<string, unknown> = { get_key: true };
    if (expiryMonths !== undefined) form.expiry_months = expiryMonths;
    const retrieved = await server.request('PUT', `${USERS}${id}/`, { form });
    return { id, key: RetrievedKey.parse(retrieved.json).key };
  }

  it('refuses a key on the request after its administrator is deleted through the API', async () => {
    const { id, key } = await keyOf(['list']);
    expect((await server.request('GET', LISTS, { key })).status).toBe(200);
    expect((await server.request('DELETE', `${USERS}${id}/`)).status).toBe(200);
    const refused = await server.request('GET', LISTS, { key });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ is_error: true, message: AUTHENTICATION_FAILED });
  });

  it('applies permissions changed through the API on the next request', async () => {
    const { id, key } = await keyOf(['contact']);
    expect((await server.request('GET', CONTACTS, { key })).status).toBe(200);
    expect((await server.request('PUT', `${USERS}${id}/`, { form: { permissions: ['list'] } })).status).toBe(200);
    expect((await server.request('GET', CONTACTS, { key })).status).toBe(403);
  });

  it("applies an account's new plan on the next request (the allowance follows it, spec §8)", async () => {
    const account = await server.createAccount(`plan-${dialect}`, { maxContacts: 100 });
    const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    expect((await server.request('GET', LISTS, { key })).headers['x-ratelimit-limit']).toBe('300');
    const updated = await server.request('PUT', `/api/2/accounts/${account.id}/`, {
      key: server.globalKey,
      form: { max_contacts: 200 },
    });
    expect(updated.status, updated.body).toBe(200);
    expect((await server.request('GET', LISTS, { key })).headers['x-ratelimit-limit']).toBe('600');
  });

  it('refuses a cached key the moment it expires', async () => {
    const { key } = await keyOf(['list'], 1);
    expect((await server.request('GET', LISTS, { key })).status).toBe(200);
    // Two months on by the server's clock, within the same second of the cache (which keeps real
    // time): the cached grant is refused by its expiry, not read again.
    clock.advance(62 * 24 * 3600 * 1000);
    expect((await server.request('GET', LISTS, { key })).status).toBe(401);
  });

  describe('another process on the same database', () => {
    let peer: FastifyInstance;
    beforeAll(async () => {
      peer = await server.startPeer();
    });
    const viaPeer = async (key: string) =>
      (await peer.inject({ method: 'GET', url: LISTS, headers: { authorization: `Bearer ${key}` } })).statusCode;

    it(`accepts a revoked key for at most ${AUTH_CACHE_SECONDS} s`, async () => {
      const { id, key } = await keyOf(['list']);
      expect(await viaPeer(key)).toBe(200);
      expect((await server.request('DELETE', `${USERS}${id}/`)).status).toBe(200);
      // The revoking process refuses at once; the peer trusts what it read a moment ago.
      expect((await server.request('GET', LISTS, { key })).status).toBe(401);
      expect(await viaPeer(key)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, AUTH_CACHE_SECONDS * 1000 + 50));
      expect(await viaPeer(key)).toBe(401);
    });
  });
});

describe('createAuthCache', () => {
  const grant = (administratorId: number): KeyGrant => ({
    principal: { administratorId, accountId: 1, permissions: new Set(), limitLists: [], limitMetadata: [] },
    expiresAt: null,
    cidr: null,
  });

  it('keeps found keys, never unknown ones', async () => {
    const cache = createAuthCache(60_000);
    const load = vi.fn(() => Promise.resolve<KeyGrant | undefined>(undefined));
    await cache.key('unknown', load);
    await cache.key('unknown', load);
    expect(load).toHaveBeenCalledTimes(2);
    const found = vi.fn(() => Promise.resolve<KeyGrant | undefined>(grant(1)));
    await cache.key('known', found);
    expect(await cache.key('known', found)).toEqual(grant(1));
    expect(found).toHaveBeenCalledTimes(1);
  });

  it('does not keep what a lookup read before a forget', async () => {
    const cache = createAuthCache(60_000);
    let finish: (value: KeyGrant) => void = () => undefined;
    const slow = cache.key('k', () => new Promise<KeyGrant>((resolve) => (finish = resolve)));
    // A write commits and forgets while the lookup's (old) row is on its way.
    cache.forget();
    finish(grant(1));
    await slow;
    const fresh = vi.fn(() => Promise.resolve<KeyGrant | undefined>(grant(2)));
    expect(await cache.key('k', fresh)).toEqual(grant(2));
    expect(fresh).toHaveBeenCalledTimes(1);
  });

  it('reads again once an entry is older than its lifetime', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = createAuthCache(1000);
    const load = vi.fn(() => Promise.resolve<KeyGrant | undefined>(grant(1)));
    await cache.key('k', load);
    vi.advanceTimersByTime(999);
    await cache.key('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await cache.key('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });
});
