import { describe, expect, it } from 'vitest';
import { formatExact, formatRelative } from './relative-time.ts';

const now = new Date('2026-11-21T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('formatRelative', () => {
  it('says how long ago in the largest unit that fits', () => {
    expect(formatRelative(now, now, 'en')).toBe('now');
    expect(formatRelative(ago(30), now, 'en')).toBe('30 seconds ago');
    expect(formatRelative(ago(60), now, 'en')).toBe('1 minute ago');
    expect(formatRelative(ago(59 * 60 + 59), now, 'en')).toBe('59 minutes ago');
    expect(formatRelative(ago(2 * 3600), now, 'en')).toBe('2 hours ago');
    expect(formatRelative(ago(86_400), now, 'en')).toBe('yesterday');
    expect(formatRelative(ago(13 * 86_400), now, 'en')).toBe('last week');
    expect(formatRelative(ago(70 * 86_400), now, 'en')).toBe('2 months ago');
    expect(formatRelative(ago(800 * 86_400), now, 'en')).toBe('2 years ago');
  });

  it('handles times ahead of the clock (a server clock a little ahead)', () => {
    expect(formatRelative(ago(-90), now, 'en')).toBe('in 1 minute');
  });
});

describe('formatExact', () => {
  it('gives the full date and time with its zone', () => {
    // Punctuation varies with the ICU version; the parts do not.
    const text = formatExact(now, 'en-GB', 'UTC');
    for (const part of ['Saturday', '21 November 2026', '12:00:00', 'UTC'])
      expect(text).toContain(part);
  });
});
