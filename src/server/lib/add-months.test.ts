import { describe, expect, it } from 'vitest';
import { addMonths } from '../services/provisioning.service.ts';

const plus = (iso: string, months: number) => addMonths(new Date(iso), months).toISOString();

describe('addMonths (key expiry, spec §4.6 expiry_months)', () => {
  it('keeps the day and the time of day when the later month has it', () => {
    expect(plus('2026-11-15T10:20:30.000Z', 1)).toBe('2026-12-15T10:20:30.000Z');
    expect(plus('2026-11-15T10:20:30.000Z', 12)).toBe('2027-11-15T10:20:30.000Z');
  });

  it('takes the last day of a shorter month, never spilling into the next', () => {
    expect(plus('2026-11-29T10:00:00.000Z', 3)).toBe('2027-02-28T10:00:00.000Z');
    expect(plus('2026-11-30T23:59:59.999Z', 3)).toBe('2027-02-28T23:59:59.999Z');
    expect(plus('2027-01-31T00:00:00.000Z', 1)).toBe('2027-02-28T00:00:00.000Z');
    expect(plus('2028-01-31T12:00:00.000Z', 1)).toBe('2028-02-29T12:00:00.000Z');
    expect(plus('2027-03-31T08:00:00.000Z', 6)).toBe('2027-09-30T08:00:00.000Z');
    expect(plus('2027-08-31T08:00:00.000Z', 1)).toBe('2027-09-30T08:00:00.000Z');
  });

  it('counts from 29 February to the 28th in a common year and the 29th in a leap one', () => {
    expect(plus('2028-02-29T06:00:00.000Z', 12)).toBe('2029-02-28T06:00:00.000Z');
    expect(plus('2028-02-29T06:00:00.000Z', 1)).toBe('2028-03-29T06:00:00.000Z');
    expect(plus('2027-02-28T06:00:00.000Z', 12)).toBe('2028-02-28T06:00:00.000Z');
    expect(plus('2031-02-28T06:00:00.000Z', 12)).toBe('2032-02-28T06:00:00.000Z');
  });

  it('crosses the year and reads the date in UTC', () => {
    expect(plus('2026-12-31T23:30:00.000Z', 1)).toBe('2027-01-31T23:30:00.000Z');
    expect(plus('2026-10-31T00:00:00.000Z', 6)).toBe('2027-04-30T00:00:00.000Z');
  });
});
