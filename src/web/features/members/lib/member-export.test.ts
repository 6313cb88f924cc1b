import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { parseCsv } from '../../../lib/csv-parse.ts';
import { membersToCsv } from './member-export.ts';

describe('members export', () => {
  it('writes one record per member with the digest override, formula cells escaped', () => {
    const contact = {
      id: 7,
      firstname: '=HYPERLINK("http://evil.example")',
      surname: '-Smith',
      emails: [{ email: 'a@example.org' }, { email: 'b@example.org' }],
    } as Contact;
    const csv = membersToCsv([
      { contact, membership: { id: 1, contact: 7, list: 'news', digest: true } },
      { contact: { ...contact, id: 8, firstname: 'Bob', surname: '' }, membership: { id: 2, contact: 8, list: 'news', digest: null } },
    ]);
    expect(parseCsv(csv, ',')).toEqual([
      ['id', 'firstname', 'surname', 'emails', 'digest'],
      ['7', '\'=HYPERLINK("http://evil.example")', "'-Smith", 'a@example.org;b@example.org', 'digest'],
      ['8', 'Bob', '', 'a@example.org;b@example.org', ''],
    ]);
  });
});
