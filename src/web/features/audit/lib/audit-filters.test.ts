import { describe, expect, it } from 'vitest';
import {
  NO_FILTERS,
  fromLocalInput,
  readAuditFilters,
  toAuditQuery,
  toLocalInput,
  writeAuditFilters,
} from './audit-filters.ts';

describe('the Audit page’s filters in the URL', () => {
  it('round-trips every filter, and leaves the empty ones out', () => {
    const filters = {
      since: '2027-01-01T08:00:00.000Z',
      until: '2027-01-31T18:30:00.000Z',
      actor: 'ann@example.org',
      list: 'news',
      objectType: 'list' as const,
      objectId: '7',
      operation: 'lists.update',
    };
    const params = writeAuditFilters(filters);
    expect(params.toString()).toBe(
      'since=2027-01-01T08%3A00%3A00.000Z&until=2027-01-31T18%3A30%3A00.000Z&actor=ann%40example.org&list=news&object_type=list&object_id=7&operation=lists.update',
    );
    expect(readAuditFilters(params)).toEqual(filters);
    expect(writeAuditFilters(NO_FILTERS).toString()).toBe('');
    expect(toAuditQuery(filters)).toEqual({
      since: filters.since,
      until: filters.until,
      actor: 'ann@example.org',
      list: 'news',
      object_type: 'list',
      object_id: '7',
      operation: 'lists.update',
    });
    expect(toAuditQuery(NO_FILTERS)).toEqual({});
  });

  it('drops what it cannot read: an unknown object type, a time that is no time', () => {
    const read = readAuditFilters(
      new URLSearchParams('object_type=planet&since=yesterday&until=2027-02-01T00:00:00%2B01:00'),
    );
    expect(read).toMatchObject({ objectType: '', since: '', until: '2027-01-31T23:00:00.000Z' });
  });

  it('shows an instant in the browser’s time zone and reads it back', () => {
    const iso = '2027-03-31T23:30:00.000Z';
    const local = toLocalInput(iso);
    expect(local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    expect(fromLocalInput(local)).toBe(iso);
    expect(fromLocalInput('')).toBe('');
    expect(toLocalInput('')).toBe('');
  });
});
