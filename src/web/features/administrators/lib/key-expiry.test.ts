import { describe, expect, it } from 'vitest';
import { timeToExpiry } from './key-expiry.ts';

const now = Date.parse('2026-01-01T00:00:00Z');
const after = (ms: number) => new Date(now + ms).toISOString();
const DAY = 86_400_000;

describe('timeToExpiry', () => {
  it('tells the time left in months, days or hours', () => {
    expect(timeToExpiry(after(365 * DAY), now)).toBe('in 12 months');
    expect(timeToExpiry(after(31 * DAY - 5_000), now)).toBe('in 31 days');
    expect(timeToExpiry(after(3 * 3_600_000), now)).toBe('in 3 hours');
  });

  it('says when a key has expired, and passes through what is not a date', () => {
    expect(timeToExpiry(after(-1), now)).toBe('expired');
    expect(timeToExpiry('soon', now)).toBe('soon');
  });
});
