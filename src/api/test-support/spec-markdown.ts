import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A small reader for the tables of the API spec (Markdown pipe tables under `### N.M` headings).
 * It knows nothing of the API: spec-coverage.test.ts decides what each table means.
 */

export interface SpecTable {
  /** The `### 2.4 List` section the table sits in: '2.4'. */
  section: string;
  header: string[];
  rows: string[][];
  /** The last non-empty line before the table ("`moderate` values (…):"), or ''. */
  caption: string;
}

export const SPEC_PATH = path.resolve(
  import.meta.dirname,
  '../../../../shared/spec/mailing-list-api-v2.md',
);

export function readSpec(
  file = SPEC_PATH,
): { ok: true; text: string } | { ok: false; message: string } {
  if (!existsSync(file)) {
    return {
      ok: false,
      message: `The API spec is missing: expected it at ${file} (the shared spec beside the repository). The spec-coverage test reads it to compare the contract in src/api against it.`,
    };
  }
  return { ok: true, text: readFileSync(file, 'utf8') };
}

/** `### 2.4 List` → '2.4'; `## 8. Limits` → '8'. */
const HEADING = /^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s/;

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

export function parseTables(markdown: string): SpecTable[] {
  const tables: SpecTable[] = [];
  const lines = markdown.split(/\r?\n/);
  let section = '';
  let caption = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heading = HEADING.exec(line);
    if (heading) {
      section = heading[1] ?? '';
      caption = '';
      continue;
    }
    if (!line.trim().startsWith('|')) {
      if (line.trim() !== '') caption = line.trim();
      continue;
    }
    const block: string[] = [];
    while (i < lines.length && (lines[i] ?? '').trim().startsWith('|'))
      block.push(lines[i++] ?? '');
    i--;
    const [headerLine = '', separator = '', ...body] = block;
    if (!/^\|?\s*:?-+/.test(separator.trim())) continue; // not a table, only a line starting with |
    tables.push({ section, header: cellsOf(headerLine), rows: body.map(cellsOf), caption });
    caption = '';
  }
  return tables;
}

/** `message_footer / message_footer_html` → both; `surname, firstname` → both; backticks dropped. */
export function fieldNamesOf(cell: string): string[] {
  return cell
    .split(/\s*\/\s*|\s*,\s*/)
    .map((name) => name.replaceAll('`', '').trim())
    .filter((name) => name !== '' && !name.startsWith('<'));
}

/** Section '2.4' lies in '2.1'–'2.7' when `within('2', 1, 7)`. */
export function within(section: string, chapter: string, first: number, last: number): boolean {
  const [head, sub] = section.split('.');
  const n = Number(sub);
  return head === chapter && section.split('.').length === 2 && n >= first && n <= last;
}
