import { describe, expect, it } from 'vitest';
import type { Contact, ContactQuery } from '../../../../api/schemas/contact.ts';
import { parseCsv } from '../../../lib/csv-parse.ts';
import { contactsToCsv, fetchAllContacts } from './export-contacts.ts';

function contact(id: number, extra: Partial<Contact> & Record<string, unknown> = {}): Contact {
  return {
    id,
    ccid: null,
    firstname: `F${id}`,
    surname: 'S',
    created: '2026-01-01T00:00:00.000Z',
    notes: '',
    emails: [
      {
        id,
        contact: id,
        email: `c${id}@x.example`,
        digest: false,
        paused: false,
        confirmed: true,
        ceid: null,
      },
    ],
    lists: [],
    ...extra,
  };
}

describe('fetchAllContacts', () => {
  it('reads every page at limit 1000 with the same filters until count is reached', async () => {
    const queries: ContactQuery[] = [];
    const total = 2500;
    const result = await fetchAllContacts(
      (query) => {
        queries.push(query);
        const start = ((query.page ?? 1) - 1) * 1000;
        const size = Math.min(1000, total - start);
        return Promise.resolve({
          count: total,
          data: Array.from({ length: size }, (_, i) => contact(start + i + 1)),
        });
      },
      { search: 'x', page: 4, limit: 25 },
    );
    expect(result).toHaveLength(total);
    expect(queries).toEqual([
      { search: 'x', page: 1, limit: 1000 },
      { search: 'x', page: 2, limit: 1000 },
      { search: 'x', page: 3, limit: 1000 },
    ]);
  });
});

describe('contactsToCsv', () => {
  it('writes every field, the addresses and memberships, and one column per custom field', () => {
    const csv = contactsToCsv([
      contact(1, {
        notes: 'likes "tea", a lot',
        city: 'Oslo',
        lists: [
          { id: 10, contact: 1, list: 'news', digest: null },
          { id: 11, contact: 1, list: 'daily', digest: true },
        ],
      }),
      contact(2, { ccid: 'C-2', lang: 'nb' }),
    ]);
    const [header, first, second] = parseCsv(csv);
    expect(header).toEqual([
      'id',
      'ccid',
      'firstname',
      'surname',
      'created',
      'notes',
      'emails',
      'digest_emails',
      'paused_emails',
      'unconfirmed_emails',
      'lists',
      'lists_digest',
      'lists_no_digest',
      'city',
      'lang',
    ]);
    expect(first).toEqual([
      '1',
      '',
      'F1',
      'S',
      '2026-01-01T00:00:00.000Z',
      'likes "tea", a lot',
      'c1@x.example',
      '',
      '',
      '',
      'news;daily',
      'daily',
      '',
      'Oslo',
      '',
    ]);
    expect(second?.[1]).toBe('C-2');
    expect(second?.at(-1)).toBe('nb');
  });
});
