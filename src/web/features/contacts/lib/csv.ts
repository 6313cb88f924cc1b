/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF; a field holding a comma,
 * a double quote, CR or LF is quoted, and its quotes doubled.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(quoteField).join(',')).join('\r\n') + '\r\n';
}

function quoteField(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

/**
 * Parses RFC 4180 CSV (also tolerating bare LF line ends, as spreadsheets write them). A trailing
 * line end does not make an empty last record; blank lines are dropped.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    field = '';
  };
  while (i < source.length) {
    const char = source[i] as string;
    if (quoted) {
      if (char === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += char;
      }
      i += 1;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && source[i + 1] === '\n') {
      endRow();
      i += 1;
    } else if (char === '\n' || char === '\r') endRow();
    else field += char;
    i += 1;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
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
