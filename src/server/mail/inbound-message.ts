import { simpleParser, type ParsedMail } from 'mailparser';
import { htmlToPlain } from '../../api/message-content.ts';
import {
  NOT_CHECKED,
  type HeaderField,
  type PostingAuthentication,
} from '../../api/posting-policy/types.ts';
import { fromHeaderProblem } from './from-header.ts';
import { messageIdsIn } from './message-ids.ts';
import type { ReceivedAuthentication } from './received-authentication.ts';
import type { SenderVerification } from './sender-auth.ts';

/**
 * What the pipeline reads of one message received by SMTP, parsed once whatever the number of lists
 * it is for. Built on a worker thread (inbound-work.ts): mailparser and the text conversions take
 * seconds on a message of 10 MB, which no other request may wait for (SECURITY.md 29). The text
 * travels as UTF-8 bytes: on the server's thread a text of 10 MB as a string is 10 to 20 MB of
 * heap its collector pauses to scan; as bytes it is outside the heap, and only passes through.
 */
export interface InboundMessage {
  /** The Message-ID with its angle brackets, or null when the message has none. */
  messageId: string | null;
  subject: string;
  /** The first mailbox of From; its address is '' when From names none. */
  from: { address: string; name: string };
  /** Every header field in order, unfolded (RFC 5322 §2.2.3), as the posting policy reads them. */
  headers: HeaderField[];
  /** The text version, UTF-8: the sender's, or one made from the HTML of an HTML-only message. */
  plain: Uint8Array;
  /** The sender's HTML, UTF-8; empty when the message has none. */
  html: Uint8Array;
  /** The msg-ids the message answers, nearest first (In-Reply-To, then References from the last). */
  answers: string[];
  /** Whether it authenticates for its From domain (sender-auth.ts), for the posting policy. */
  authentication: PostingAuthentication;
  /** What the way out keeps of the verification (issue 26 item 2); null when none was made. */
  received: ReceivedAuthentication | null;
}

/**
 * A message mailparser cannot read (over its limits of 1 MB of headers or 1000 MIME parts, or
 * malformed): sent again it is the same message, so the listener refuses it for good (554).
 */
export type ReadOutcome = { ok: true; message: InboundMessage } | { ok: false; unreadable: string };

/** Header fields as the policy reads them: name and value, folding undone (RFC 5322 §2.2.3). */
export function headerFields(parsed: ParsedMail): HeaderField[] {
  return parsed.headerLines.map(({ line }) => {
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1);
    return { name: name.trim(), value: value.replace(/\r?\n[ \t]+/g, ' ').trim() };
  });
}

/**
 * Reads a message, and verifies its author with `verify` (null: not checked, as for the demo's own
 * mail). A From header that names no one author fails without asking anything.
 */
export async function readInbound(
  raw: Uint8Array,
  verify: ((raw: Uint8Array) => Promise<SenderVerification>) | null,
): Promise<ReadOutcome> {
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), {
      skipImageLinks: true,
    });
  } catch (error) {
    return { ok: false, unreadable: error instanceof Error ? error.message : String(error) };
  }
  const sender = parsed.from?.value[0];
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const plain = parsed.text ?? (html ? htmlToPlain(html) : '');
  const headers = headerFields(parsed);
  const mailboxes = (parsed.from?.value ?? []).flatMap((entry) =>
    entry.group ? entry.group.map((member) => member.address ?? '') : [entry.address ?? ''],
  );
  const fromProblem = fromHeaderProblem(headers, mailboxes);
  const verified: SenderVerification =
    fromProblem !== null
      ? {
          authentication: { result: 'fail', detail: `the From header ${fromProblem}`, fromProblem },
          received: null,
        }
      : verify
        ? await verify(raw)
        : { authentication: NOT_CHECKED, received: null };
  const references = Array.isArray(parsed.references)
    ? parsed.references
    : messageIdsIn(parsed.references);
  return {
    ok: true,
    message: {
      messageId: parsed.messageId ?? null,
      subject: parsed.subject ?? '',
      from: { address: sender?.address ?? '', name: sender?.name ?? '' },
      headers,
      plain: Buffer.from(plain),
      html: Buffer.from(html),
      answers: [...messageIdsIn(parsed.inReplyTo), ...[...references].reverse()],
      ...verified,
    },
  };
}
