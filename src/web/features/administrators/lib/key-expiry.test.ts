import { describe, expect, it } from 'vitest';
import { keyExpiryStatus, timeToExpiry } from './key-expiry.ts';

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

describe('keyExpiryStatus', () => {
  const inThreeMonths = after(91 * DAY);
  const lastYear = after(-365 * DAY);

  it('reads the server’s key_expiry first: a date, the past, or no expiry', () => {
    expect(keyExpiryStatus({ key_expiry: inThreeMonths }, undefined, true, now)).toEqual({
      text: 'Expires in 3 months',
      expiry: inThreeMonths,
    });
    expect(keyExpiryStatus({ key_expiry: lastYear }, undefined, true, now)).toEqual({
      text: 'Expired',
      expiry: lastYear,
    });
    expect(keyExpiryStatus({ key_expiry: null }, undefined, true, now)).toEqual({
      text: 'No expiry',
    });
    // A key retrieved here that expires sooner does not hide a longer-lived one the server knows.
    expect(keyExpiryStatus({ key_expiry: null }, after(30 * DAY), true, now).text).toBe(
      'No expiry',
    );
  });

  it('falls back on the key this tab retrieved, then says what it cannot know', () => {
    expect(keyExpiryStatus({}, after(30 * DAY), false, now).text).toBe('Expires in 30 days');
    expect(keyExpiryStatus({}, null, false, now).text).toBe('No expiry');
    expect(keyExpiryStatus({}, undefined, true, now).text).toBe('No key');
    expect(keyExpiryStatus({}, undefined, false, now).text).toBe('Not retrieved in this tab');
  });
});
