import { useSyncExternalStore } from 'react';
import type { Administrator } from '../../../../api/schemas/administrator.ts';
import type { AccountId } from '../../../lib/api-client.ts';

/**
 * Spec §4.6: the expiry of a key is known from the answer that issued it; a spec v2 administrator
 * object does not carry it (the reference server adds `key_expiry`, which is preferred). For other
 * servers the dashboard remembers what it retrieved in this tab (memory only), so the table can
 * still tell the time left. The key itself is never kept.
 */
const expiries = new Map<string, string | null>();
const listeners = new Set<() => void>();
let version = 0;

const slot = (accountId: AccountId, administratorId: string) =>
  `${accountId ?? ''}:${administratorId}`;

export function rememberKeyExpiry(
  accountId: AccountId,
  administratorId: string,
  expiry: string | null,
): void {
  expiries.set(slot(accountId, administratorId), expiry);
  version += 1;
  for (const listener of listeners) listener();
}

/** `undefined`: no key retrieved in this tab; `null`: the last one never expires. */
export function useKeyExpiry(accountId: AccountId, administratorId: string) {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  const key = slot(accountId, administratorId);
  return expiries.has(key) ? (expiries.get(key) ?? null) : undefined;
}

/** "in 3 months", "in 12 days", "expired" — the time left until an ISO date. */
export function timeToExpiry(expiry: string, now = Date.now()): string {
  const ms = Date.parse(expiry) - now;
  if (Number.isNaN(ms)) return expiry;
  if (ms <= 0) return 'expired';
  const days = ms / 86_400_000;
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  if (days >= 59.5) return format.format(Math.round(days / 30.44), 'month');
  if (days >= 1) return format.format(Math.round(days), 'day');
  return format.format(Math.max(1, Math.round(ms / 3_600_000)), 'hour');
}

/**
 * What the table says of an administrator's API keys: from the server's `key_expiry` extension
 * when the administrator carries it, else from the key this tab retrieved. `serverReports`: the
 * server sends `key_expiry` at all (some administrator of the answer carries it), so its absence
 * means "no key" rather than "unknown".
 */
export function keyExpiryStatus(
  administrator: Pick<Administrator, 'key_expiry'>,
  retrievedHere: string | null | undefined,
  serverReports: boolean,
  now = Date.now(),
): { text: string; expiry?: string } {
  const expiry = administrator.key_expiry !== undefined ? administrator.key_expiry : retrievedHere;
  if (expiry === null) return { text: 'No expiry' };
  if (expiry !== undefined) {
    const left = timeToExpiry(expiry, now);
    if (left === 'expired') return { text: 'Expired', expiry };
    return { text: left === expiry ? left : `Expires ${left}`, expiry };
  }
  return { text: serverReports ? 'No key' : 'Not retrieved in this tab' };
}
