import type { HeaderField } from '../../api/posting-policy/types.ts';

/**
 * Why a message's From header names no one author, in words that follow "The From header …", or
 * null when it names exactly one mailbox, well formed (RFC 5322 §3.6.2: one From field; §3.4 a
 * mailbox is an addr-spec, or a display name and an addr-spec in angle brackets). Issue 28: each
 * of these let a forged sender through as an allowed one, because readers (mailparser, a mail
 * program, DMARC) each picked a different address out of them.
 *
 * `mailboxes` are the addresses mailparser read from the field (it is lenient: it finds an
 * address in almost anything).
 */
export function fromHeaderProblem(
  headers: readonly HeaderField[],
  mailboxes: readonly string[],
): string | null {
  const fields = headers.filter((field) => field.name.toLowerCase() === 'from');
  const [field] = fields;
  if (field === undefined) return 'is missing';
  if (fields.length > 1) return `appears ${fields.length} times`;
  if (mailboxes.length > 1) return `names ${mailboxes.length} addresses (${mailboxes.join(', ')})`;
  if (mailboxes.length === 0 || !/^[^@\s]+@[^@\s]+$/.test(mailboxes[0] ?? ''))
    return 'holds no address';
  return mailboxSyntaxProblem(field.value);
}

/** The shown part of a value, cut short: it comes from the sender. */
function quoted(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 79)}…` : value;
  return `“${shown.replace(/[\r\n]+/g, ' ')}”`;
}

/**
 * The value without comments and quoted strings (kept as `""`), which may hold anything, so that
 * what is left shows the mailbox's structure; null when a quote or a comment is not closed.
 */
function structure(value: string): string | null {
  let out = '';
  let depth = 0;
  let inQuote = false;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charAt(i);
    if (c === '\\' && (inQuote || depth > 0)) {
      i += 1;
      continue;
    }
    if (inQuote) {
      if (c === '"') {
        inQuote = false;
        out += '"';
      }
    } else if (depth > 0) {
      if (c === '(') depth += 1;
      else if (c === ')') depth -= 1;
    } else if (c === '"') {
      inQuote = true;
      out += '"';
    } else if (c === '(') {
      depth = 1;
      out += ' ';
    } else {
      out += c;
    }
  }
  return inQuote || depth > 0 ? null : out;
}

const ADDR_SPEC = /^[^\s<>()@,;:"[\]]+@[^\s<>()@,;:"[\]]+$/;

function mailboxSyntaxProblem(value: string): string | null {
  const shape = structure(value);
  if (shape === null) return `is malformed (${quoted(value)}: a quote or comment is not closed)`;
  const text = shape.trim();
  const open = text.indexOf('<');
  if (open === -1) {
    return ADDR_SPEC.test(text) ? null : `is malformed (${quoted(value)})`;
  }
  const close = text.indexOf('>', open);
  const name = text.slice(0, open);
  const inside = text.slice(open + 1, close);
  const after = text.slice(close + 1);
  if (close === -1 || /[<>@]/.test(name) || !ADDR_SPEC.test(inside.trim()) || after.trim() !== '')
    return `is malformed (${quoted(value)})`;
  return null;
}
