import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimitedError } from '../../api/errors.ts';
import {
  allowanceText,
  clearRateLimits,
  dismissRateLimit,
  formatResetTime,
  formatWait,
  getRateLimitNotice,
  reportRateLimit,
} from './rate-limit.ts';

const at = (iso: string) => new Date(iso);

describe('the rate-limit message (spec §8)', () => {
  it('names the allowance when the server gives it', () => {
    expect(allowanceText({ resetAt: at('2026-01-01T15:00:00Z'), limit: 600 })).toBe(
      'The hourly API allowance of 600 objects for this account is used up.',
    );
    expect(allowanceText({ resetAt: at('2026-01-01T15:00:00Z'), limit: null })).toBe(
      'The hourly API allowance for this account is used up.',
    );
  });

  it("gives the reset time in the reader's locale and time zone", () => {
    expect(formatResetTime(at('2026-01-01T15:00:00Z'), 'en-GB', 'UTC')).toBe('15:00');
    expect(formatResetTime(at('2026-01-01T15:00:00Z'), 'en-GB', 'Europe/Paris')).toBe('16:00');
  });

  it('says how long to wait', () => {
    const now = at('2026-01-01T14:37:00Z');
    expect(formatWait(at('2026-01-01T15:00:00Z'), now)).toBe('in 23 minutes');
    expect(formatWait(at('2026-01-01T14:37:30Z'), now)).toBe('in less than a minute');
    expect(formatWait(at('2026-01-01T15:37:00Z'), now)).toBe('in 1 hour');
    expect(formatWait(at('2026-01-01T14:36:00Z'), now)).toBe('now');
  });
});

describe('rate-limit notices', () => {
  afterEach(() => {
    clearRateLimits();
    vi.useRealTimers();
  });

  it('belong to the account they happened on, and go at the reset time', () => {
    vi.useFakeTimers();
    vi.setSystemTime(at('2026-01-01T14:59:00Z'));
    reportRateLimit('7', new RateLimitedError('over', at('2026-01-01T15:00:00Z'), 600));
    expect(getRateLimitNotice('7')).toEqual({ resetAt: at('2026-01-01T15:00:00Z'), limit: 600 });
    expect(getRateLimitNotice('8')).toBeNull();
    expect(getRateLimitNotice(null)).toBeNull();
    vi.advanceTimersByTime(60_000);
    expect(getRateLimitNotice('7')).toBeNull();
  });

  it('can be dismissed', () => {
    reportRateLimit(null, new RateLimitedError('over', new Date(Date.now() + 60_000), null));
    expect(getRateLimitNotice(null)).not.toBeNull();
    dismissRateLimit(null);
    expect(getRateLimitNotice(null)).toBeNull();
  });

  it('stay dismissed for that reset: a late 429 of the same hour does not bring them back', () => {
    const reset = new Date(Date.now() + 60_000);
    reportRateLimit('7', new RateLimitedError('over', reset, null));
    dismissRateLimit('7');
    reportRateLimit('7', new RateLimitedError('over', reset, null));
    expect(getRateLimitNotice('7')).toBeNull();
    // The next hour's limit is a new notice.
    const later = new Date(reset.getTime() + 3_600_000);
    reportRateLimit('7', new RateLimitedError('over', later, null));
    expect(getRateLimitNotice('7')?.resetAt).toEqual(later);
  });

  it('are forgotten, dismissals included, on sign-out', () => {
    const reset = new Date(Date.now() + 60_000);
    reportRateLimit('7', new RateLimitedError('over', reset, null));
    dismissRateLimit('7');
    clearRateLimits();
    reportRateLimit('7', new RateLimitedError('over', reset, null));
    expect(getRateLimitNotice('7')).not.toBeNull();
  });
});
