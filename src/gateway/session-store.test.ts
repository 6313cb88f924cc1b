import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSealer } from './sealing.ts';
import { sqliteSessionDatabase } from './session-database.ts';
import {
  PENDING_LOGIN_MS,
  SessionStore,
  type Credential,
  type Principal,
} from './session-store.ts';
import { describeEachSessionDatabase } from './test/session-databases.ts';

const SECRET = 'a session secret of at least thirty-two characters';
const lifetimes = { idleMs: 60 * 60_000, maxMs: 24 * 60 * 60_000 };
const key: Credential = { method: 'key', key: 'the-api-key-0123456789' };
const principal: Principal = { method: 'key', global: false, username: null };
const T0 = 1_800_000_000_000;
const CLIENT = '203.0.113.1';

describeEachSessionDatabase('SessionStore (SECURITY.md 25)', (place) => {
  /** One gateway process's store on the test's place. */
  const open = async (secret = SECRET) =>
    new SessionStore(await place().open(), createSealer(secret), lifetimes);

  it('finds a session by its cookie value, and only by it; a new id every time', async () => {
    const store = await open();
    const first = await store.create(key, principal, T0);
    const second = await store.create(key, principal, T0);
    expect(first.id).not.toBe(second.id);
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await store.find(first.id, T0))?.credential).toEqual(key);
    expect(await store.find(`${first.id}x`, T0)).toBeNull();
    expect(await store.find(undefined, T0)).toBeNull();
  });

  it('keeps neither the key nor the cookie value at rest', async () => {
    const store = await open();
    const { id } = await store.create(key, principal, T0);
    await store.savePendingLogin(
      'the-state',
      'the-browser',
      { codeVerifier: 'the-verifier', returnTo: '/' },
      T0,
      '203.0.113.9',
    );
    await store.close();
    const bytes = await place().dump();
    for (const secret of [key.key, id, 'the-state', 'the-browser', 'the-verifier'])
      expect(bytes).not.toContain(secret);
  });

  it('survives a restart, and another process on the same database sees the same sessions', async () => {
    const first = await open();
    const { id } = await first.create(key, principal, T0);
    const other = await open();
    expect((await other.find(id, T0 + 1000))?.credential).toEqual(key);
    // Signing out in one process ends the session in the other at once.
    const session = await other.find(id, T0 + 1000);
    await first.delete(session?.idHash ?? '');
    expect(await other.find(id, T0 + 2000)).toBeNull();
  });

  it('ends a session left idle, and any session at its absolute lifetime', async () => {
    const store = await open();
    const idle = await store.create(key, principal, T0);
    expect(await store.find(idle.id, T0 + lifetimes.idleMs - 1)).not.toBeNull();
    // Used just now: the idle clock restarted.
    expect(await store.find(idle.id, T0 + lifetimes.idleMs * 2 - 2)).not.toBeNull();
    expect(await store.find(idle.id, T0 + lifetimes.idleMs * 4)).toBeNull();

    const busy = await store.create(key, principal, T0);
    let now = T0;
    while (now < T0 + lifetimes.maxMs - lifetimes.idleMs / 2) {
      now += lifetimes.idleMs / 2;
      expect(await store.find(busy.id, now), 'used often, within its lifetime').not.toBeNull();
    }
    expect(await store.find(busy.id, T0 + lifetimes.maxMs)).toBeNull();
  });

  it('opens nothing sealed under another SESSION_SECRET', async () => {
    const { id } = await (await open()).create(key, principal, T0);
    expect(
      await (await open('another secret, also thirty-two characters or more')).find(id, T0),
    ).toBeNull();
  });

  it('lets exactly one caller claim a refresh of one version of the credential', async () => {
    const store = await open();
    const other = await open();
    const { session } = await store.create(key, principal, T0);
    expect(await store.claimRefresh(session.idHash, 0, T0, 10_000)).toBe(true);
    expect(await other.claimRefresh(session.idHash, 0, T0, 10_000)).toBe(false);
    // A lease left behind by a process that died expires.
    expect(await other.claimRefresh(session.idHash, 0, T0 + 10_000, 10_000)).toBe(true);
    expect(await other.completeRefresh(session.idHash, 0, { method: 'key', key: 'next' })).toBe(
      true,
    );
    // The loser of the race cannot overwrite what the winner stored.
    expect(await store.completeRefresh(session.idHash, 0, { method: 'key', key: 'stale' })).toBe(
      false,
    );
    expect(await store.reload(session.idHash)).toMatchObject({
      version: 1,
      credential: { key: 'next' },
    });
  });

  it('of many claims made at once from several processes, exactly one wins', async () => {
    const stores = await Promise.all([open(), open(), open()]);
    const { session } = await stores[0].create(key, principal, T0);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        stores[i % stores.length]!.claimRefresh(session.idHash, 0, T0, 10_000),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  describe('pending logins (SECURITY.md 9 and 28)', () => {
    const login = { codeVerifier: 'verifier', returnTo: '/contacts' };

    it('are taken once, by the browser that started them', async () => {
      const store = await open();
      await store.savePendingLogin('state-1', 'browser-a', login, T0, CLIENT);
      expect(await store.takePendingLogin('state-1', 'browser-a', T0 + 1000)).toEqual(login);
      expect(await store.takePendingLogin('state-1', 'browser-a', T0 + 1000)).toBeNull();
    });

    it('a code brought to another browser burns the state', async () => {
      const store = await open();
      await store.savePendingLogin('state-2', 'browser-a', login, T0, CLIENT);
      expect(await store.takePendingLogin('state-2', 'browser-b', T0)).toBeNull();
      expect(await store.takePendingLogin('state-2', undefined, T0)).toBeNull();
      expect(await store.takePendingLogin('state-2', 'browser-a', T0)).toBeNull();
    });

    it('expire', async () => {
      const store = await open();
      await store.savePendingLogin('state-3', 'browser-a', login, T0, CLIENT);
      expect(
        await store.takePendingLogin('state-3', 'browser-a', T0 + PENDING_LOGIN_MS),
      ).toBeNull();
    });

    describe('bounded (issue 28: anyone may start a sign-in)', () => {
      const bounded = async () =>
        new SessionStore(await place().open(), createSealer(SECRET), lifetimes, {
          perClient: 3,
          total: 5,
        });
      /** Whether the sign-in `state` names is still pending (taking it ends it). */
      const pending = (store: SessionStore, state: string) =>
        store.takePendingLogin(state, 'browser', T0 + 1000).then((found) => found !== null);

      it('one client keeps its newest few; the oldest goes, the newest always starts', async () => {
        const store = await bounded();
        await store.savePendingLogin('other-client', 'browser', login, T0, '198.51.100.7');
        // All at one instant: the newest is kept whatever the order of equal times.
        for (let i = 0; i < 6; i += 1)
          await store.savePendingLogin(`flood-${i}`, 'browser', login, T0 + Math.min(i, 3), CLIENT);
        expect(await pending(store, 'flood-5')).toBe(true);
        expect(await pending(store, 'flood-0')).toBe(false);
        expect(await pending(store, 'flood-1')).toBe(false);
        expect(await pending(store, 'flood-2')).toBe(false);
        // Another client's sign-in is not pushed out by this one's.
        expect(await pending(store, 'other-client')).toBe(true);
      });

      it('past the total, the oldest of any client goes; the newest always starts', async () => {
        const store = await bounded();
        for (let i = 0; i < 8; i += 1)
          await store.savePendingLogin(`client-${i}`, 'browser', login, T0 + i, `192.0.2.${i}`);
        const kept = [];
        for (let i = 0; i < 8; i += 1) kept.push(await pending(store, `client-${i}`));
        expect(kept).toEqual([false, false, false, true, true, true, true, true]);
      });
    });

    it('go with ended sessions when purged, and only they', async () => {
      const store = await open();
      const idle = await store.create(key, principal, T0);
      const used = await store.create(key, principal, T0);
      await store.savePendingLogin('old', 'browser', login, T0, CLIENT);
      await store.savePendingLogin('new', 'browser', login, T0 + lifetimes.idleMs, CLIENT);
      expect(await store.find(used.id, T0 + lifetimes.idleMs - 1)).not.toBeNull();
      await store.purgeExpired(T0 + lifetimes.idleMs);
      expect(await store.reload(idle.session.idHash)).toBeNull();
      expect(await store.reload(used.session.idHash)).not.toBeNull();
      expect(await store.takePendingLogin('new', 'browser', T0 + lifetimes.idleMs)).toEqual(login);
      expect(await store.takePendingLogin('old', 'browser', T0)).toBeNull();
    });
  });
});

describe('a gateway.db made before pending logins were bounded (issue 28)', () => {
  it('gets the new column at start, and its pending sign-ins still finish', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gateway-upgrade-'));
    try {
      const file = path.join(dir, 'gateway.db');
      const old = new SqliteDatabase(file);
      old.exec(`CREATE TABLE gateway_logins (state_hash TEXT PRIMARY KEY, browser_hash TEXT NOT NULL,
        pending BLOB NOT NULL, expires_at INTEGER NOT NULL)`);
      old.close();
      const store = new SessionStore(sqliteSessionDatabase(file), createSealer(SECRET), lifetimes);
      const login = { codeVerifier: 'verifier', returnTo: '/' };
      await store.savePendingLogin('state', 'browser', login, T0, CLIENT);
      expect(await store.takePendingLogin('state', 'browser', T0)).toEqual(login);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
