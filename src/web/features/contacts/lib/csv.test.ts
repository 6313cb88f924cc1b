import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv } from './csv.ts';

describe('CSV (RFC 4180)', () => {
  it('quotes only the fields that need it, doubling quotes, and ends records with CRLF', () => {
    expect(toCsv([['a', 'b,c', 'say "hi"', 'two\nlines', '']])).toBe(
      'a,"b,c","say ""hi""","two\nlines",\r\n',
    );
  });

  it('parses quoted fields, doubled quotes, CRLF and LF line ends', () => {
    expect(parseCsv('name,notes\r\n"Smith, Ann","said ""yes""\nthen left"\nBob,\n')).toEqual([
      ['name', 'notes'],
      ['Smith, Ann', 'said "yes"\nthen left'],
      ['Bob', ''],
    ]);
  });

  it('drops a byte-order mark and blank lines', () => {
    expect(parseCsv('\uFEFFa,b\n\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('reads back whatever it writes', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', 'é') });
    const row = fc.array(field, { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), (rows) => {
        // A record of one empty field is a blank line, which the parser drops by design.
        expect(parseCsv(toCsv(rows))).toEqual(rows);
      }),
    );
  });
});
