import Papa from 'papaparse';

/**
 * A cell a spreadsheet would run as a formula: it starts with `=`, `+`, `-`, `@`, a tab or CR
 * (OWASP "CSV injection"). Papa Parse's own default pattern ends in `.*$` without the `s` flag, so
 * it misses such a cell once it holds a line break; this one looks at the first character only.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** The text a cell is written as: a formula-like cell gets a leading `'` (shown, never run). */
export function escapeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/**
 * CSV as RFC 4180 writes it (commas, CRLF, quotes doubled where needed), every formula-like cell
 * escaped with a leading `'`: every file the dashboard offers may be opened in a spreadsheet.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return Papa.unparse(rows.map((row) => row.map(escapeFormula)), { newline: '\r\n' }) + '\r\n';
}

/**
 * Parses CSV with Papa Parse, detecting the delimiter (`,`, `;`, tab or `|`: spreadsheets in many
 * locales write `;`) unless one is given. A byte-order mark is dropped, and blank lines too.
 */
export function parseCsv(text: string, delimiter = ''): string[][] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const result = Papa.parse<string[]>(source, {
    delimiter,
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: true,
  });
  return result.data;
}

/** Offers text as a file download (a Blob URL, released once the click has been handled). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
