import { simpleParser, type ParsedMail } from 'mailparser';
import { htmlToPlain } from '../../api/message-content.ts';

/**
 * What a bounce says (issue 26 item 1), read from mail to a delivery's return path. `hard`: the
 * address failed for good (a 5.x.x status, RFC 3463); `temporary`: not yet delivered (4.x.x,
 * "delayed"), recorded but never counted; null: no failure at all (a DSN of success, an
 * auto-reply to the return path), nothing recorded.
 */
export type BounceKind = 'hard' | 'temporary';

export interface BounceReport {
  kind: BounceKind | null;
  /** The enhanced status code (RFC 3463), e.g. `5.1.1`, when the report gives one. */
  status: string | null;
  /** Why, in one line: the Diagnostic-Code, else the line of the text that said it. */
  reason: string;
}

/** The most of a reason kept: it is shown to administrators, not archived. */
export const REASON_MAX = 300;

const NOT_A_FAILURE: BounceReport = { kind: null, status: null, reason: '' };

/**
 * Reads a bounce: the RFC 3464 delivery-status report of a `multipart/report` (each recipient's
 * Action, Status and Diagnostic-Code), else the text of the common non-standard ones (Postfix,
 * Exim, qmail, Exchange: "550 5.1.1 … user unknown"), above the copy of the original message they
 * quote. Runs on the inbound pool (inbound-work.ts): a bounce may carry a message of 10 MB.
 */
export async function readBounceReport(raw: Uint8Array): Promise<BounceReport> {
  let parsed: ParsedMail;
  try {
    // keepDeliveryStatus: the report stays a part of its own instead of joining the text.
    parsed = await simpleParser(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), {
      keepDeliveryStatus: true,
      skipImageLinks: true,
    });
  } catch {
    return NOT_A_FAILURE;
  }
  const reports = parsed.attachments.filter((part) =>
    /^message\/(global-)?delivery-status$/i.test(part.contentType),
  );
  if (reports.length > 0)
    return worstOf(reports.flatMap((part) => readDeliveryStatus(part.content.toString('utf8'))));
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  return readBounceText(parsed.text ?? (html ? htmlToPlain(html) : ''));
}

/** RFC 3464 §2: groups of header-like fields, the message's first, then one per recipient. */
export function readDeliveryStatus(text: string): BounceReport[] {
  const groups = text
    .replace(/\r\n/g, '\n')
    .split(/\n[ \t]*\n/)
    .map(fieldsOf);
  return groups
    .filter((fields) => fields.has('action') || fields.has('final-recipient'))
    .map(recipientReport);
}

function fieldsOf(group: string): Map<string, string> {
  const fields = new Map<string, string>();
  // RFC 5322 §2.2.3 folding: a line that starts with white space continues the field above.
  for (const line of group.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return fields;
}

/** RFC 3463 §2: class.subject.detail, the subject 0 to 7 (so "Exim 4.96" is no status). */
const STATUS = /^([245])\.[0-7]\.\d{1,3}\b/;

function recipientReport(fields: Map<string, string>): BounceReport {
  const action = (fields.get('action') ?? '').toLowerCase().split(/[\s(]/)[0] ?? '';
  const status = STATUS.exec(fields.get('status') ?? '')?.[0] ?? null;
  // "smtp; 550 5.1.1 …": the diagnostic's type is dropped.
  const diagnostic = (fields.get('diagnostic-code') ?? '').replace(/^[a-z0-9-]+\s*;\s*/i, '');
  const reason = reasonLine(diagnostic || `${action || 'failed'}${status ? ` (${status})` : ''}`);
  if (action === 'delayed') return { kind: 'temporary', status, reason };
  if (action === 'failed' || (action === '' && status !== null)) {
    // RFC 3463: the status's class says it; a failure without one (or with a 2.x.x) is for good.
    if (status?.startsWith('4')) return { kind: 'temporary', status, reason };
    if (action === '' && status?.startsWith('2')) return NOT_A_FAILURE;
    return { kind: 'hard', status: status?.startsWith('5') ? status : null, reason };
  }
  // delivered, relayed, expanded: no failure.
  return NOT_A_FAILURE;
}

/** The most serious of several recipients' reports: a hard failure, else a temporary one. */
function worstOf(reports: BounceReport[]): BounceReport {
  return (
    reports.find((report) => report.kind === 'hard') ??
    reports.find((report) => report.kind === 'temporary') ??
    NOT_A_FAILURE
  );
}

/**
 * Where a bounce's text ends and the copy of the original message begins (qmail's "Below this
 * line is a copy of the message", Exim's "This is a copy of the message", "Original message
 * follows"…): what the member wrote must not decide the bounce.
 */
const QUOTE_START =
  /^[\s>-]*(?:-+\s*)?(?:below this line is a copy of the message|this is a copy of the message|(?:the )?original message(?: follows| headers)?|undelivered message(?: headers)? follows|message headers follow|returned message follows|here is a copy of the (?:first part of the )?message)/im;

/** An SMTP reply code with its enhanced status ("550 5.1.1", "550-5.1.1"). */
const CODE_WITH_STATUS = /(?<![\d.])([45]\d\d)[ -]+([245]\.[0-7]\.\d{1,3})(?![\d.])/g;
/** An enhanced status code alone, not inside an IP address or a version number. */
const BARE_STATUS = /(?<![\d.])([45])\.[0-7]\.\d{1,3}(?![\d.])/g;
/** An SMTP reply code where a server quotes one: at a line's start, or after ":", ";" or "#". */
const REPLY_CODE = /(?:^|[:;#]\s*)([45][0-5]\d)(?=[ -])/gm;

const PERMANENT_WORDS = /\b(?:permanent (?:error|failure|fatal error)|failed permanently|permanently rejected)\b/i;
const DELAY_WORDS =
  /\b(?:delayed|delay(?:ed)? (?:warning|notification)|has not yet been delivered|not been delivered yet|will (?:continue|keep) (?:trying|to try|attempting)|will (?:be )?retr(?:y|ied)|still trying|temporar(?:y|ily) (?:failure|error|problem|unavailable|rejected)|try again later|over quota|mailbox (?:is )?full)\b/i;
const HARD_WORDS =
  /\b(?:user unknown|unknown user|no such (?:user|mailbox|recipient|address)|(?:address|account|user|recipient|mailbox)(?: address)? (?:does not exist|doesn't exist|not found|unknown|rejected|unavailable|(?:is |has been )?disabled)|invalid (?:recipient|address|mailbox)|recipnotfound|undeliverable|could not be delivered|delivery (?:has )?failed)\b/i;

/** A non-standard bounce: its codes first, then its words. */
export function readBounceText(full: string): BounceReport {
  const start = QUOTE_START.exec(full);
  const text = start ? full.slice(0, start.index) : full;
  const coded = [...text.matchAll(CODE_WITH_STATUS)].map((match) => ({
    status: match[2] ?? null,
    hard: (match[2] ?? '').startsWith('5'),
    index: match.index,
  }));
  const found = coded.length > 0 ? coded : [...text.matchAll(BARE_STATUS)].map((match) => ({
    status: match[0],
    hard: match[1] === '5',
    index: match.index,
  }));
  const codes =
    found.length > 0
      ? found
      : [...text.matchAll(REPLY_CODE)].map((match) => ({
          status: null,
          hard: (match[1] ?? '').startsWith('5'),
          index: match.index + match[0].indexOf(match[1] ?? ''),
        }));
  const decisive = codes.find((code) => code.hard) ?? codes[0];
  if (decisive)
    return {
      kind: decisive.hard ? 'hard' : 'temporary',
      status: decisive.status,
      reason: lineAt(text, decisive.index),
    };
  for (const [words, kind] of [
    [PERMANENT_WORDS, 'hard'],
    [DELAY_WORDS, 'temporary'],
    [HARD_WORDS, 'hard'],
  ] as const) {
    const match = words.exec(text);
    if (match) return { kind, status: null, reason: lineAt(text, match.index) };
  }
  return NOT_A_FAILURE;
}

/** The line of `text` that holds `index`, on one line and within REASON_MAX. */
function lineAt(text: string, index: number): string {
  const from = text.lastIndexOf('\n', index) + 1;
  const to = text.indexOf('\n', index);
  return reasonLine(text.slice(from, to === -1 ? undefined : to));
}

/** One line, white space folded, at most REASON_MAX characters (SECURITY.md 37: no CR/LF). */
export function reasonLine(value: string): string {
  // \p{Cc}: the C0 controls and DEL, which a relay's words may hold besides white space.
  const line = value.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return line.length > REASON_MAX ? `${line.slice(0, REASON_MAX - 1)}…` : line;
}
