import { beforeEach, describe, expect, it } from 'vitest';
import { RefreshRefusedError, createRefresher, refreshDueAt } from './refresh.ts';
import { createSealer } from './sealing.ts';
import { SessionStore, type Credential, type OAuthTokens } from './session-store.ts';
import { describeEachSessionDatabase } from './test/session-databases.ts';

const T0 = 1_800_000_000_000;
const MINUTE = 60_000;

describe('refreshDueAt', () => {
  const tokens = (lifetimeMs: number | null, refreshToken: string | null = 'r'): OAuthTokens => ({
    accessToken: 'a',
    refreshToken,
    issuedAt: T0,
    expiresAt: lifetimeMs === null ? null : T0 + lifetimeMs,
  });

  it('is a fifth of the lifetime before expiry, at most a minute before', () => {
    expect(refreshDueAt(tokens(15 * MINUTE))).toBe(T0 + 14 * MINUTE);
    expect(refreshDueAt(tokens(MINUTE))).toBe(T0 + 48_000);
    expect(refreshDueAt(tokens(60 * MINUTE))).toBe(T0 + 59 * MINUTE);
  });

  it('never, without a refresh token or a stated lifetime', () => {
    expect(refreshDueAt(tokens(15 * MINUTE, null))).toBeNull();
    expect(refreshDueAt(tokens(null))).toBeNull();
  });
});

describeEachSessionDatabase(
  'createRefresher (SECURITY.md 9; refresh tokens rotate, SECURITY.md 5)',
  (place) => {
    let now = T0;
    const open = async () =>
      new SessionStore(await place().open(), createSealer('x'.repeat(32)), {
        idleMs: 60 * MINUTE,
        maxMs: 24 * 60 * MINUTE,
      });

    beforeEach(() => {
      now = T0;
    });

    /** A stand-in refresh endpoint that rotates: each refresh token works once. */
    function upstream() {
      const used = new Set<string>();
      let issued = 0;
      const calls: string[] = [];
      return {
        calls,
        refresh: async (tokens: OAuthTokens): Promise<OAuthTokens> => {
          calls.push(tokens.refreshToken ?? '');
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (!tokens.refreshToken || used.has(tokens.refreshToken))
            throw new RefreshRefusedError('invalid_grant');
          used.add(tokens.refreshToken);
          issued += 1;
          return {
            accessToken: `access-${issued}`,
            refreshToken: `refresh-${issued}`,
            issuedAt: now,
            expiresAt: now + 15 * MINUTE,
          };
        },
      };
    }

    const oauth = (expiresInMs: number): Credential => ({
      method: 'oauth',
      tokens: {
        accessToken: 'access-0',
        refreshToken: 'refresh-0',
        issuedAt: now,
        expiresAt: now + expiresInMs,
      },
    });
    const principal = { method: 'oauth' as const, global: false, username: null };

    /** One gateway process: its store, a rotating refresh endpoint and the refresher between them. */
    async function setUp() {
      const store = await open();
      const server = upstream();
      const refresher = createRefresher({
        store,
        refresh: server.refresh,
        now: () => now,
        leaseMs: 10_000,
      });
      return { store, server, refresher };
    }

    it('leaves a token alone until it is due, then refreshes it once for many concurrent requests', async () => {
      const { store, server, refresher } = await setUp();
      const { session } = await store.create(oauth(15 * MINUTE), principal, now);
      expect(await refresher.usable(session)).toBe(session);
      expect(server.calls).toEqual([]);

      now += 14 * MINUTE;
      const results = await Promise.all(
        Array.from({ length: 10 }, () => refresher.usable(session)),
      );
      expect(server.calls).toEqual(['refresh-0']);
      for (const result of results)
        expect(result?.credential).toMatchObject({ tokens: { accessToken: 'access-1' } });
      expect((await store.reload(session.idHash))?.version).toBe(1);
    });

    it('two gateway processes on one database send one refresh between them', async () => {
      const server = upstream();
      const [a, b] = [await open(), await open()];
      const { session } = await a.create(oauth(MINUTE), principal, now);
      now += MINUTE;
      const refreshers = [a, b].map((store) =>
        createRefresher({
          store,
          refresh: server.refresh,
          now: () => now,
          leaseMs: 10_000,
          pollMs: 5,
        }),
      );
      const [first, second] = refreshers;
      if (!first || !second) throw new Error('two refreshers');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? first : second).usable(session)),
      );
      expect(server.calls).toEqual(['refresh-0']);
      for (const result of results)
        expect(result?.credential).toMatchObject({ tokens: { accessToken: 'access-1' } });
    });

    it('a refused refresh ends the session', async () => {
      const store = await open();
      const refresher = createRefresher({
        store,
        refresh: () => Promise.reject(new RefreshRefusedError('invalid_grant')),
        now: () => now,
        leaseMs: 10_000,
      });
      const { id, session } = await store.create(oauth(MINUTE), principal, now);
      now += MINUTE;
      expect(await refresher.usable(session)).toBeNull();
      expect(await store.find(id, now)).toBeNull();
    });

    it('an upstream that does not answer leaves the current token in use while it lasts', async () => {
      const store = await open();
      const refresher = createRefresher({
        store,
        refresh: () => Promise.reject(new Error('connect ECONNREFUSED')),
        now: () => now,
        leaseMs: 10_000,
      });
      const { session } = await store.create(oauth(15 * MINUTE), principal, now);
      now += 14 * MINUTE + 30_000;
      expect(await refresher.usable(session)).toBe(session);
      // The lease was given back: the next request tries again.
      expect(await store.claimRefresh(session.idHash, 0, now, 1000)).toBe(true);
      await store.releaseRefresh(session.idHash, 0);
      now += MINUTE;
      await expect(refresher.usable(session)).rejects.toThrow(/ECONNREFUSED/);
    });

    it('forced after a 401: refreshes a token not yet due, or takes the one another request just stored', async () => {
      const { store, server, refresher } = await setUp();
      const { session } = await store.create(oauth(15 * MINUTE), principal, now);
      const forced = await refresher.usable(session, true);
      expect(forced?.credential).toMatchObject({ tokens: { accessToken: 'access-1' } });
      // Another request saw the old token refused too: it gets the new one, no second refresh.
      const late = await refresher.usable(session, true);
      expect(late?.credential).toMatchObject({ tokens: { accessToken: 'access-1' } });
      expect(server.calls).toEqual(['refresh-0']);
    });

    it('an API key is never refreshed', async () => {
      const store = await open();
      const refresher = createRefresher({
        store,
        refresh: () => Promise.reject(new Error('no')),
        now: () => now,
        leaseMs: 1,
      });
      const { session } = await store.create(
        { method: 'key', key: 'k' },
        { ...principal, method: 'key' },
        now,
      );
      expect(await refresher.usable(session, true)).toBe(session);
    });
  },
);
