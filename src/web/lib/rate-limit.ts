import { useSyncExternalStore } from 'react';
import type { RateLimitedError } from '../../api/errors.ts';
import type { AccountId } from './api-client.ts';

/** Spec §8: an account's hourly allowance is used up until `resetAt`. */
export interface RateLimitNotice {
  resetAt: Date;
  /** Objects per hour, when the server says (X-RateLimit-Limit). */
  limit: number | null;
}

const notices = new Map<AccountId, RateLimitNotice>();
const timers = new Map<AccountId, ReturnType<typeof setTimeout>>();
/**
 * The reset time the user dismissed the banner for, per account. Requests already in flight (or
 * refetched on navigation) keep answering 429 until then; each one must not bring the banner back.
 * A 429 with a later reset is a new hour's limit and is shown again.
 */
const dismissedUntil = new Map<AccountId, number>();
const listeners = new Set<() => void>();
let version = 0;

function emit() {
  version += 1;
  for (const listener of listeners) listener();
}

/** Records a 429 for the account the request was for; the notice goes away at the reset time. */
export function reportRateLimit(
  accountId: AccountId,
  error: RateLimitedError,
  now = Date.now(),
): void {
  const dismissed = dismissedUntil.get(accountId);
  if (dismissed !== undefined && error.resetAt.getTime() <= dismissed) return;
  dismissedUntil.delete(accountId);
  notices.set(accountId, { resetAt: error.resetAt, limit: error.limit });
  clearTimeout(timers.get(accountId));
  // Timers beyond ~24.8 days overflow; a reset is at most an hour away, but stay safe.
  const delay = Math.min(Math.max(0, error.resetAt.getTime() - now), 2 ** 31 - 1);
  timers.set(
    accountId,
    setTimeout(() => expireRateLimit(accountId), delay),
  );
  emit();
}

/** The user closed the banner: keep it closed until this limit's reset time. */
export function dismissRateLimit(accountId: AccountId): void {
  const notice = notices.get(accountId);
  if (notice) dismissedUntil.set(accountId, notice.resetAt.getTime());
  expireRateLimit(accountId);
}

function expireRateLimit(accountId: AccountId): void {
  clearTimeout(timers.get(accountId));
  timers.delete(accountId);
  if (notices.delete(accountId)) emit();
}

/** Sign-out: forget every notice and every dismissal. */
export function clearRateLimits(): void {
  for (const accountId of [...notices.keys()]) expireRateLimit(accountId);
  dismissedUntil.clear();
}

export function getRateLimitNotice(accountId: AccountId): RateLimitNotice | null {
  return notices.get(accountId) ?? null;
}

/** The notice of the account on screen: another account's limit is never shown under this one. */
export function useRateLimitNotice(accountId: AccountId): RateLimitNotice | null {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  return getRateLimitNotice(accountId);
}

/** "15:00" in the user's locale (the banner also carries the ISO time in `<time datetime>`). */
export function formatResetTime(resetAt: Date, locale?: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone }).format(
    resetAt,
  );
}

/** "in 23 minutes", "in less than a minute", "in 1 hour". */
export function formatWait(resetAt: Date, now: Date): string {
  const minutes = Math.ceil((resetAt.getTime() - now.getTime()) / 60_000);
  if (minutes <= 1) return minutes <= 0 ? 'now' : 'in less than a minute';
  if (minutes >= 60 && minutes % 60 === 0)
    return `in ${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `in ${minutes} minutes`;
}

/** The banner's first sentence for a 429 (spec §8: the allowance is counted per hour). */
export function allowanceText(notice: RateLimitNotice): string {
  const allowance =
    notice.limit === null
      ? 'The hourly API allowance'
      : `The hourly API allowance of ${notice.limit} objects`;
  return `${allowance} for this account is used up.`;
}
