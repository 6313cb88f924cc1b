import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { parseCsv } from '../../../lib/csv-parse.ts';
import { contactsToCsv } from './export-contacts.ts';
import { guessMapping, mapRows } from './import-contacts.ts';

/** Issue 27 item 6: an exported file re-imports unchanged, formula escaping and all. */
function contact(id: number, fields: Record<string, unknown>): Contact {
  return {
    id,
    ccid: null,
    firstname: '',
    surname: '',
    created: '2026-01-01T00:00:00.000Z',
    notes: '',
    emails: [],
    lists: [],
    ...fields,
  };
}

const email = (id: number, address: string) => ({
  id,
  contact: id,
  email: address,
  digest: false,
  paused: false,
  confirmed: true,
  ceid: null,
});

describe('export then import', () => {
  it('gives back every column the import reads, formula-like cells included', () => {
    const contacts = [
      contact(1, {
        ccid: '=c1',
        firstname: '=SUM(A1:A9)',
        surname: '+44 20',
        notes: '-minus\nsecond line, with a comma',
        emails: [email(1, 'ann@x.example'), email(2, 'ann.work@x.example')],
        lists: [{ id: 1, list: 'news', contact: 1, digest: null }],
        Region: '@North',
        shoe: '\tTabbed',
      }),
      contact(2, {
        ccid: "'quoted",
        firstname: 'Bo',
        surname: "O'Brien",
        notes: '',
        emails: [email(3, 'bo@x.example')],
        lists: [
          { id: 2, list: 'news', contact: 2, digest: true },
          { id: 3, list: 'events', contact: 2, digest: false },
        ],
        Region: '=1+1',
        shoe: '41',
      }),
    ];
    const [header = [], ...rows] = parseCsv(contactsToCsv(contacts));
    const { valid, invalid } = mapRows(header, rows, guessMapping(header, ['Region', 'shoe']), {
      customFields: ['Region', 'shoe'],
    });
    expect(invalid).toEqual([]);
    expect(valid.map((row) => row.body)).toEqual([
      {
        ccid: '=c1',
        firstname: '=SUM(A1:A9)',
        surname: '+44 20',
        notes: '-minus\nsecond line, with a comma',
        emails: ['ann@x.example', 'ann.work@x.example'],
        lists: ['news'],
        Region: '@North',
        shoe: '\tTabbed',
      },
      {
        ccid: "'quoted",
        firstname: 'Bo',
        surname: "O'Brien",
        emails: ['bo@x.example'],
        lists: ['news', 'events'],
        Region: '=1+1',
        shoe: '41',
      },
    ]);
  });
});
