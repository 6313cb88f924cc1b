import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../lib/csv-parse.ts';
import {
  describeImport,
  existingOwner,
  guessMapping,
  mapRows,
  rejectedRowsCsv,
} from './import-contacts.ts';
import { ApiError } from '../../../../api/errors.ts';

describe('CSV import mapping', () => {
  it('guesses the usual column names and ignores the rest', () => {
    expect(guessMapping(['First name', 'Last Name', 'E-mail', 'Lists', 'shoe size'])).toEqual([
      'firstname',
      'surname',
      'emails',
      'lists',
      'ignore',
    ]);
  });

  it('builds create bodies, splits multiple values, and reports bad rows with their line', () => {
    const header = ['firstname', 'emails', 'lists', 'city'];
    const rows = [
      ['Ann', 'ann@x.example; ann2@x.example', 'news;events', 'Oslo'],
      ['Bob', 'not-an-address', '', ''],
      ['Cy', '', '', ''],
      ['Di', 'di@x.example', 'bad name!', ''],
    ];
    const { valid, invalid } = mapRows(header, rows, ['firstname', 'emails', 'lists', 'custom']);
    expect(valid).toEqual([
      {
        line: 2,
        cells: rows[0],
        body: {
          firstname: 'Ann',
          emails: ['ann@x.example', 'ann2@x.example'],
          lists: ['news', 'events'],
          city: 'Oslo',
        },
      },
    ]);
    expect(invalid.map((r) => [r.line, r.message])).toEqual([
      [3, 'emails (not-an-address): is not a valid email address'],
      [4, 'emails: needs at least one email address'],
      [5, 'lists (bad name!): may hold only letters, digits, underscore, period and hyphen'],
    ]);
  });

  it('flags a value for a custom field outside the limit_metadata of the principal (spec §2.6)', () => {
    const header = ['emails', 'Region', 'Shoe size'];
    const rows = [
      ['ann@x.example', 'North', ''],
      ['bob@x.example', 'South', '44'],
    ];
    const { valid, invalid } = mapRows(header, rows, ['emails', 'custom', 'custom'], {
      customFields: ['region', 'Shoe size'],
      writableField: (key) => key === 'region',
    });
    expect(valid.map((row) => row.body)).toEqual([{ emails: ['ann@x.example'], region: 'North' }]);
    expect(invalid.map((r) => [r.line, r.message])).toEqual([
      [3, 'Shoe size: this custom field is outside those you are limited to (limit_metadata)'],
    ]);
  });

  it('reads the owner of an address in use from the server message', () => {
    expect(existingOwner(new ApiError(400, 'a@x.example already belongs to contact 42'))).toBe(
      '42',
    );
    expect(existingOwner(new ApiError(400, 'something else'))).toBeNull();
  });

  it('writes rejected rows as they came, in file order, with the reason', () => {
    const csv = rejectedRowsCsv(
      ['name', 'email'],
      [
        { line: 5, cells: ['B', 'b'], message: 'late' },
        { line: 3, cells: ['A, a', 'a'], message: 'early' },
      ],
    );
    expect(parseCsv(csv)).toEqual([
      ['line', 'name', 'email', 'error'],
      ['3', 'A, a', 'a', 'early'],
      ['5', 'B', 'b', 'late'],
    ]);
  });

  it('maps the account’s custom fields by name, sent under their own spelling', () => {
    expect(guessMapping(['Email', ' shoe size ', 'City'], ['Shoe size'])).toEqual([
      'emails',
      'custom',
      'ignore',
    ]);
    const { valid } = mapRows(['email', 'SHOE SIZE'], [['a@x.example', '42']], ['emails', 'custom'], {
      customFields: ['Shoe size'],
    });
    expect(valid[0]?.body).toEqual({ emails: ['a@x.example'], 'Shoe size': '42' });
  });

  it('flags a row naming a list the account does not have', () => {
    const { valid, invalid } = mapRows(
      ['email', 'lists'],
      [
        ['a@x.example', 'news'],
        ['b@x.example', 'news;typo'],
      ],
      ['emails', 'lists'],
      { knownLists: new Set(['news']) },
    );
    expect(valid.map((row) => row.line)).toEqual([2]);
    expect(invalid).toEqual([
      { line: 3, cells: ['b@x.example', 'news;typo'], message: 'lists: there is no list named typo in this account' },
    ]);
  });

  it('accounts for every row once', () => {
    expect(
      describeImport({ rows: 4, invalid: 1, created: 2, merged: 0, skipped: 0, refused: 1, pending: 0 }),
    ).toBe(
      '4 rows: 2 created, 0 merged, 0 skipped (address already in the account), 1 refused by the server, 1 invalid (not sent).',
    );
    expect(
      describeImport({ rows: 1, invalid: 0, created: 0, merged: 0, skipped: 0, refused: 0, pending: 1 }),
    ).toMatch(/^1 row: .* 1 not sent yet\.$/);
  });

  it('reads a ;-separated file', () => {
    const [header, ...rows] = parseCsv('email;firstname;lists\r\nann@x.example;Ann;"news;events"\r\n');
    const { valid } = mapRows(header ?? [], rows, guessMapping(header ?? []));
    expect(valid[0]?.body).toEqual({ emails: ['ann@x.example'], firstname: 'Ann', lists: ['news', 'events'] });
  });
});
