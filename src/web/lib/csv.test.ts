import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-parse.ts';
import { escapeFormula, toCsv } from './csv.ts';

describe('CSV', () => {
  it('quotes the fields that need it, doubling quotes, and ends records with CRLF', () => {
    expect(toCsv([['a', 'b,c', 'say "hi"', 'two\nlines', '']])).toBe(
      'a,"b,c","say ""hi""","two\nlines",\r\n',
    );
  });

  it('escapes every cell a spreadsheet would run as a formula with a leading quote', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(escapeFormula(`${start}1+1`)).toBe(`'${start}1+1`);
    }
    // Papa Parse's own pattern misses a formula once the cell holds a line break.
    expect(escapeFormula('=HYPERLINK("x")\nmore')).toBe('\'=HYPERLINK("x")\nmore');
    expect(escapeFormula('Ann = Bob')).toBe('Ann = Bob');
    expect(escapeFormula('')).toBe('');
    expect(parseCsv(toCsv([['=SUM(A1)', '@me', 'plain']]))).toEqual([
      ["'=SUM(A1)", "'@me", 'plain'],
    ]);
  });

  it('parses quoted fields, doubled quotes, CRLF and LF line ends', () => {
    expect(parseCsv('name,notes\r\n"Smith, Ann","said ""yes""\nthen left"\r\nBob,\r\n')).toEqual([
      ['name', 'notes'],
      ['Smith, Ann', 'said "yes"\nthen left'],
      ['Bob', ''],
    ]);
  });

  it('detects a semicolon delimiter (spreadsheets in many locales write it)', () => {
    expect(
      parseCsv('email;firstname;lists\nann@example.org;Ann;"news;x"\nbob@example.org;Bob,Jr;\n'),
    ).toEqual([
      ['email', 'firstname', 'lists'],
      ['ann@example.org', 'Ann', 'news;x'],
      ['bob@example.org', 'Bob,Jr', ''],
    ]);
  });

  it('drops a byte-order mark and blank lines', () => {
    expect(parseCsv('\uFEFFa,b\n\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('reads back whatever it writes, formula-like cells with their leading quote', () => {
    const field = fc.string({
      unit: fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', 'é', '=', '-', '@', ';'),
    });
    const row = fc.array(field, { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), (rows) => {
        const expected = rows.map((r) => r.map(escapeFormula));
        expect(parseCsv(toCsv(rows), ',')).toEqual(expected);
      }),
    );
  });
});
