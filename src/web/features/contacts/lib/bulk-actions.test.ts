import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { parseCsv } from '../../../lib/csv-parse.ts';
import { describePlan, failedContactsCsv, planBulk } from './bulk-actions.ts';

const contact = (id: number, lists: string[]): Contact => ({
  id,
  ccid: null,
  firstname: `F${id}`,
  surname: '',
  created: '',
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
  lists: lists.map((list, i) => ({ id: id * 10 + i, contact: id, list, digest: null })),
});

describe('bulk plans (dry run)', () => {
  const contacts = [contact(1, ['news']), contact(2, []), contact(3, ['news', 'events'])];

  it('adds only those not yet on the list', () => {
    const plan = planBulk({ kind: 'add-to-list', list: 'news' }, contacts);
    expect(plan.contacts.map((c) => c.id)).toEqual([2]);
    expect(plan.skipped).toBe(2);
    expect(describePlan({ kind: 'add-to-list', list: 'news' }, plan)).toBe(
      '1 contact will be added to news. 2 already as asked, left alone.',
    );
  });

  it('removes only members; "all lists" only those on some list; delete takes everyone', () => {
    expect(planBulk({ kind: 'remove-from-list', list: 'events' }, contacts).contacts).toHaveLength(
      1,
    );
    expect(planBulk({ kind: 'remove-from-all-lists' }, contacts).contacts).toHaveLength(2);
    expect(planBulk({ kind: 'delete' }, contacts)).toMatchObject({ skipped: 0 });
  });

  it('writes the failed contacts with their reason as CSV', () => {
    const rows = parseCsv(
      failedContactsCsv([{ item: contact(2, []), message: 'list: unknown, sorry' }]),
    );
    expect(rows).toEqual([
      ['id', 'name', 'emails', 'error'],
      ['2', 'F2', 'c2@x.example', 'list: unknown, sorry'],
    ]);
  });
});
