import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSealer } from './sealing.ts';
import { PENDING_LOGIN_MS, SessionStore, type Credential, type Principal } from './session-store.ts';

const SECRET = 'a session secret of at least thirty-two characters';
const lifetimes = { idleMs: 60 * 60_000, maxMs: 24 * 60 * 60_000 };
const key: Credential = { method: 'key', key: 'the-api-key-0123456789' };
const principal: Principal = { method: 'key', global: false, username: null };
const T0 = 1_800_000_000_000;

let dir: string;
let file: string;
const opened: SessionStore[] = [];
function open(secret = SECRET) {
  const store = new SessionStore(file, createSealer(secret), lifetimes);
  opened.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-store-'));
  file = path.join(dir, 'gateway.db');
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SessionStore (SECURITY.md 25)', () => {
  it('finds a session by its cookie value, and only by it; a new id every time', () => {
    const store = open();
    const first = store.create(key, principal, T0);
    const second = store.create(key, principal, T0);
    expect(first.id).not.toBe(second.id);
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.find(first.id, T0)?.credential).toEqual(key);
    expect(store.find(`${first.id}x`, T0)).toBeNull();
    expect(store.find(undefined, T0)).toBeNull();
  });

  it('keeps neither the key nor the cookie value in the database file', () => {
    const store = open();
    const { id } = store.create(key, principal, T0);
    store.close();
    const bytes = readFileSync(file).toString('latin1') + readFileSync(`${file}-wal`, { flag: 'a+' }).toString('latin1');
    expect(bytes).not.toContain(key.key);
    expect(bytes).not.toContain(id);
  });

  it('survives a restart, and another process on the same file sees the same sessions', () => {
    const { id } = open().create(key, principal, T0);
    const other = open();
    expect(other.find(id, T0 + 1000)?.credential).toEqual(key);
    // Signing out in one process ends the session in the other at once.
    const session = other.find(id, T0 + 1000);
    opened[0]?.delete(session?.idHash ?? '');
    expect(other.find(id, T0 + 2000)).toBeNull();
  });

  it('ends a session left idle, and any session at its absolute lifetime', () => {
    const store = open();
    const idle = store.create(key, principal, T0);
    expect(store.find(idle.id, T0 + lifetimes.idleMs - 1)).not.toBeNull();
    // Used just now: the idle clock restarted.
    expect(store.find(idle.id, T0 + lifetimes.idleMs * 2 - 2)).not.toBeNull();
    expect(store.find(idle.id, T0 + lifetimes.idleMs * 4)).toBeNull();

    const busy = store.create(key, principal, T0);
    let now = T0;
    while (now < T0 + lifetimes.maxMs - lifetimes.idleMs / 2) {
      now += lifetimes.idleMs / 2;
      expect(store.find(busy.id, now), 'used often, within its lifetime').not.toBeNull();
    }
    expect(store.find(busy.id, T0 + lifetimes.maxMs)).toBeNull();
  });

  it('opens nothing sealed under another SESSION_SECRET', () => {
    const { id } = open().create(key, principal, T0);
    expect(open('another secret, also thirty-two characters or more').find(id, T0)).toBeNull();
  });

  it('lets exactly one caller claim a refresh of one version of the credential', () => {
    const store = open();
    const other = open();
    const { session } = store.create(key, principal, T0);
    expect(store.claimRefresh(session.idHash, 0, T0, 10_000)).toBe(true);
    expect(other.claimRefresh(session.idHash, 0, T0, 10_000)).toBe(false);
    // A lease left behind by a process that died expires.
    expect(other.claimRefresh(session.idHash, 0, T0 + 10_000, 10_000)).toBe(true);
    expect(other.completeRefresh(session.idHash, 0, { method: 'key', key: 'next' })).toBe(true);
    // The loser of the race cannot overwrite what the winner stored.
    expect(store.completeRefresh(session.idHash, 0, { method: 'key', key: 'stale' })).toBe(false);
    expect(store.reload(session.idHash)).toMatchObject({ version: 1, credential: { key: 'next' } });
  });
});

describe('pending logins (SECURITY.md 9 and 28)', () => {
  const login = { codeVerifier: 'verifier', returnTo: '/contacts' };

  it('are taken once, by the browser that started them', () => {
    const store = open();
    store.savePendingLogin('state-1', 'browser-a', login, T0);
    expect(store.takePendingLogin('state-1', 'browser-a', T0 + 1000)).toEqual(login);
    expect(store.takePendingLogin('state-1', 'browser-a', T0 + 1000)).toBeNull();
  });

  it('a code brought to another browser burns the state', () => {
    const store = open();
    store.savePendingLogin('state-2', 'browser-a', login, T0);
    expect(store.takePendingLogin('state-2', 'browser-b', T0)).toBeNull();
    expect(store.takePendingLogin('state-2', undefined, T0)).toBeNull();
    expect(store.takePendingLogin('state-2', 'browser-a', T0)).toBeNull();
  });

  it('expire', () => {
    const store = open();
    store.savePendingLogin('state-3', 'browser-a', login, T0);
    expect(store.takePendingLogin('state-3', 'browser-a', T0 + PENDING_LOGIN_MS)).toBeNull();
  });
});
