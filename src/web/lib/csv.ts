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
 * The cell a `'` was put before by `escapeFormula`, as it was: the import reads back what the
 * export wrote (`'=SUM(A1)` is `=SUM(A1)` again); a `'` before anything else is the cell's own.
 */
export function unescapeFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * CSV as RFC 4180 writes it (commas, CRLF, quotes doubled where needed), every formula-like cell
 * escaped with a leading `'`: every file the dashboard offers may be opened in a spreadsheet.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows
    .map((row) => row.map((cell) => csvField(escapeFormula(cell))).join(',') + '\r\n')
    .join('');
}

/**
 * A field as RFC 4180 writes it: quoted, with quotes doubled, when it holds a comma, a quote or a
 * line break, or starts or ends with a space (which some readers trim). Writing is these few lines;
 * reading, with its delimiter guessing, is Papa Parse's (csv-parse.ts), loaded only by the import.
 */
function csvField(cell: string): string {
  return /[",\r\n]|^\s|\s$/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
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
