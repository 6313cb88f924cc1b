import type { AccountRow } from '../repositories/accounts.repository.ts';
import type { MaybePromise } from '../lib/maybe-promise.ts';
import type { Principal } from './principal.ts';

/**
 * How long a process trusts what it read of an API key (its administrator: permissions, limits,
 * cidr) and of an account (plan, ccid, settings) when the change is made elsewhere: by another
 * server process on the same PostgreSQL, or by the `listkeeper` CLI. Such a process may accept a
 * revoked key, or apply old permissions, for up to this long (README "Configuration").
 *
 * Within the process nothing waits: every write through the API that can change a key, an
 * administrator or an account empties the cache before its answer leaves (`emptiesAuthCache` in
 * http/operation-policy.ts), and a
 * key's expiry and cidr are checked on every request against the cached values. OAuth access
 * tokens are not cached: their grant is looked up on every request.
 */
export const AUTH_CACHE_SECONDS = 1;

/** Distinct keys and accounts held; far above any real installation's working set. */
const MAX_ENTRIES = 10_000;

/** What a key grants, with the conditions checked on every request. */
export interface KeyGrant {
  principal: Principal;
  /** Unix milliseconds; null: the key never expires. */
  expiresAt: number | null;
  cidr: string | null;
}

export interface AuthCache {
  /**
   * The grant of the API key sent in this Authorization header value, from the cache or `load`
   * (only found keys are kept). Held by the header value, so a hit is not hashed; the process
   * that checks a key holds it in memory anyway, and the database only its hash.
   */
  key(
    authorization: string,
    load: () => Promise<KeyGrant | undefined>,
  ): MaybePromise<KeyGrant | undefined>;
  account(
    id: number,
    load: () => Promise<AccountRow | undefined>,
  ): MaybePromise<AccountRow | undefined>;
  /** Empties the cache: called once a write that may have changed what it holds has committed. */
  forget(): void;
}

interface Entry<V> {
  value: V;
  storedAt: number;
}

export function createAuthCache(ttlMs: number = AUTH_CACHE_SECONDS * 1000): AuthCache {
  const keys = new Map<string, Entry<KeyGrant>>();
  const accounts = new Map<number, Entry<AccountRow>>();
  // A lookup that began before a forget() may have read the old rows: it must not store them.
  let generation = 0;

  function remember<K, V>(
    map: Map<K, Entry<V>>,
    id: K,
    load: () => Promise<V | undefined>,
  ): MaybePromise<V | undefined> {
    const now = Date.now();
    const hit = map.get(id);
    if (hit) {
      const age = now - hit.storedAt;
      if (age >= 0 && age < ttlMs) return hit.value;
      map.delete(id);
    }
    const startedIn = generation;
    return load().then((value) => {
      if (value !== undefined && startedIn === generation) {
        if (map.size >= MAX_ENTRIES) map.clear();
        map.set(id, { value, storedAt: now });
      }
      return value;
    });
  }

  return {
    key: (authorization, load) => remember(keys, authorization, load),
    account: (id, load) => remember(accounts, id, load),
    forget() {
      generation += 1;
      keys.clear();
      accounts.clear();
    },
  };
}
