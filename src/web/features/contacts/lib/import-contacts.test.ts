import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../lib/csv.ts';
import { existingOwner, guessMapping, mapRows, rejectedRowsCsv } from './import-contacts.ts';
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
});
