import { ContactCreate } from '../../../../api/schemas/contact.ts';
import { toCsv, unescapeFormula } from '../../../lib/csv.ts';

/** Where a CSV column goes: a contact field, a custom field (by the column's name), or nowhere. */
export type ColumnTarget =
  'ignore' | 'firstname' | 'surname' | 'emails' | 'notes' | 'lists' | 'ccid' | 'custom';

export const TARGET_LABELS: Record<ColumnTarget, string> = {
  ignore: 'Do not import',
  firstname: 'First name',
  surname: 'Surname',
  emails: 'Email addresses',
  notes: 'Notes',
  lists: 'Lists',
  ccid: 'Custom ID (ccid)',
  custom: 'Custom field (named as the column)',
};

const GUESSES: [RegExp, ColumnTarget][] = [
  [/^(first ?name|firstname|given ?name|first)$/i, 'firstname'],
  [/^(surname|last ?name|lastname|family ?name)$/i, 'surname'],
  [/^(e-?mails?|e-?mail ?address(es)?|addresse?s?)$/i, 'emails'],
  [/^notes?$/i, 'notes'],
  [/^lists?$/i, 'lists'],
  [/^ccid$/i, 'ccid'],
];

/**
 * A first mapping from the header row: the usual names of the standard fields, and the account's
 * custom fields by their name (case aside); the user can change every column.
 */
export function guessMapping(
  header: readonly string[],
  customFields: readonly string[] = [],
): ColumnTarget[] {
  return header.map(
    (name) =>
      GUESSES.find(([pattern]) => pattern.test(name.trim()))?.[1] ??
      (customFieldNamed(name, customFields) !== undefined ? 'custom' : 'ignore'),
  );
}

/** The custom field a column names, matched without regard to case or surrounding spaces. */
function customFieldNamed(column: string, customFields: readonly string[]): string | undefined {
  const wanted = column.trim().toLowerCase();
  return customFields.find((field) => field.toLowerCase() === wanted);
}

/**
 * The columns mapped to a custom field that is not among `customFields` (the fields the account is
 * known to have): the server may not store them (X-Ignored-Fields).
 */
export function unknownCustomColumns(
  header: readonly string[],
  mapping: readonly ColumnTarget[],
  customFields: readonly string[],
): string[] {
  return header.filter(
    (name, column) =>
      mapping[column] === 'custom' && customFieldNamed(name, customFields) === undefined,
  );
}

export interface MapOptions {
  /** The account's custom fields: a column mapped to one is sent under the field's own spelling. */
  customFields?: readonly string[];
  /** The account's lists: a row naming another list is flagged (the server would refuse it). */
  knownLists?: ReadonlySet<string>;
  /**
   * Whether the principal may write a custom field (spec §2.6 limit_metadata): a row with a value
   * for another is flagged (the server would refuse it).
   */
  writableField?: (key: string) => boolean;
}

export interface ImportRow {
  /** Line in the file (the header is line 1). */
  line: number;
  cells: string[];
}
export interface ValidRow extends ImportRow {
  body: ContactCreate;
}
export interface InvalidRow extends ImportRow {
  message: string;
}

/** Several addresses or lists in one cell are separated by `;` (as the export writes them). */
function splitValues(cell: string): string[] {
  return cell
    .split(';')
    .map((value) => value.trim())
    .filter(Boolean);
}

/** Applies the mapping to every data row and validates it with the contract's create schema. */
export function mapRows(
  header: readonly string[],
  rows: readonly string[][],
  mapping: readonly ColumnTarget[],
  { customFields = [], knownLists, writableField = () => true }: MapOptions = {},
): { valid: ValidRow[]; invalid: InvalidRow[] } {
  const valid: ValidRow[] = [];
  const invalid: InvalidRow[] = [];
  rows.forEach((cells, index) => {
    const line = index + 2;
    const body: Record<string, unknown> = { emails: [] };
    let unwritable: string | undefined;
    mapping.forEach((target, column) => {
      // An exported cell escaped against formulas reads back as it was (lib/csv.ts), its
      // leading tab or line break kept; any other cell is trimmed of the spaces around it.
      const written = cells[column] ?? '';
      const unescaped = unescapeFormula(written);
      const cell = unescaped === written ? written.trim() : unescaped.trimEnd();
      switch (target) {
        case 'ignore':
          return;
        case 'emails':
        case 'lists':
          body[target] = [...((body[target] as string[] | undefined) ?? []), ...splitValues(cell)];
          return;
        case 'custom': {
          const name = (header[column] ?? '').trim();
          const key = customFieldNamed(name, customFields) ?? name;
          if (cell) body[key] = cell;
          if (cell && !writableField(key)) unwritable ??= key;
          return;
        }
        default:
          if (cell) body[target] = cell;
      }
    });
    if (Array.isArray(body.lists) && body.lists.length === 0) delete body.lists;
    const parsed = ContactCreate.safeParse(body);
    const unknown = parsed.success
      ? knownLists && parsed.data.lists?.find((list) => !knownLists.has(list))
      : undefined;
    if (unwritable !== undefined) {
      invalid.push({
        line,
        cells,
        message: `${unwritable}: this custom field is outside those you are limited to (limit_metadata)`,
      });
    } else if (unknown !== undefined) {
      invalid.push({
        line,
        cells,
        message: `lists: there is no list named ${unknown} in this account`,
      });
    } else if (parsed.success) {
      valid.push({ line, cells, body: parsed.data });
    } else {
      const issue = parsed.error.issues[0];
      const field = issue?.path.filter((p) => typeof p === 'string').join('.') || 'row';
      const value = issue && issue.path.length > 1 ? ` (${String(getPath(body, issue.path))})` : '';
      invalid.push({
        line,
        cells,
        message: `${field}${value}: ${issue?.message ?? 'is not valid'}`,
      });
    }
  });
  return { valid, invalid };
}

function getPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) current = (current as Record<PropertyKey, unknown> | undefined)?.[key];
  return current;
}

/** "x@y already belongs to contact 7": the server's answer for an address in use. */
export function existingOwner(error: unknown): string | null {
  const match = /already belongs to contact (\S+)$/.exec(
    error instanceof Error ? error.message : '',
  );
  return match?.[1] ?? null;
}

export interface ImportOutcome {
  /** Data rows in the file. */
  rows: number;
  /** Rows found invalid before sending (not sent). */
  invalid: number;
  created: number;
  merged: number;
  skipped: number;
  /** Rows the server refused. */
  refused: number;
  /** Rows not sent yet (a running or cancelled import). */
  pending: number;
}

/**
 * The one account of an import: every data row is in exactly one of created, merged, skipped,
 * refused by the server, invalid (not sent) or not sent yet.
 */
export function describeImport(outcome: ImportOutcome): string {
  const parts = [
    `${outcome.created} created`,
    `${outcome.merged} merged`,
    `${outcome.skipped} skipped (address already in the account)`,
    `${outcome.refused} refused by the server`,
    `${outcome.invalid} invalid (not sent)`,
  ];
  if (outcome.pending > 0) parts.push(`${outcome.pending} not sent yet`);
  return `${outcome.rows} ${outcome.rows === 1 ? 'row' : 'rows'}: ${parts.join(', ')}.`;
}

/** The rows that were not imported, as they came, with the reason in a last column. */
export function rejectedRowsCsv(
  header: readonly string[],
  rows: readonly { line: number; cells: string[]; message: string }[],
): string {
  return toCsv([
    ['line', ...header, 'error'],
    ...[...rows]
      .sort((a, b) => a.line - b.line)
      .map((r) => [String(r.line), ...r.cells, r.message]),
  ]);
}
