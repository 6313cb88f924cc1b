import { describe, expect, it } from 'vitest';
import { addMonths } from './provisioning.service.ts';

describe('addMonths (key expiry, spec §4.6 expiry_months)', () => {
  const at = (iso: string) => new Date(iso);

  it('keeps the day and the time of day', () => {
    expect(addMonths(at('2026-11-21T10:30:00.000Z'), 3).toISOString()).toBe('2027-02-21T10:30:00.000Z');
    expect(addMonths(at('2026-01-15T00:00:00.000Z'), 12).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('ends on the last day of a shorter month instead of running into the next', () => {
    expect(addMonths(at('2027-01-31T08:00:00.000Z'), 1).toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect(addMonths(at('2028-01-31T08:00:00.000Z'), 1).toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(addMonths(at('2026-08-31T08:00:00.000Z'), 6).toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect(addMonths(at('2026-05-31T08:00:00.000Z'), 1).toISOString()).toBe('2026-06-30T08:00:00.000Z');
  });
});
