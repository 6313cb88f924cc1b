import Papa from 'papaparse';

/**
 * Parses CSV with Papa Parse, detecting the delimiter (`,`, `;`, tab or `|`: spreadsheets in many
 * locales write `;`) unless one is given. A byte-order mark is dropped, and blank lines too. Apart
 * from csv.ts so that only the import page loads the parser, when it has a CSV to read (issue 17
 * item 9: page weight).
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
