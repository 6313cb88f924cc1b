import { useSyncExternalStore } from 'react';
import type { AccountId } from '../../../lib/api-client.ts';

/**
 * Spec §4.6: the expiry of a key is known only from the answer that issued it; the administrator
 * object does not carry it. The dashboard remembers what it retrieved in this tab (memory only),
 * so the table can tell the time left. The key itself is never kept.
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
