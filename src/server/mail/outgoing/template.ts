import { randomBytes } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import * as qp from 'nodemailer/lib/qp';
import { oneLine } from '../../../api/posting-policy/notice.ts';
import type { ReceivedAuthentication } from '../received-authentication.ts';
import type { Draft, MailingList, OutgoingPost, Step, StepInput } from './draft.ts';
import { firstDraft, POST_STEPS } from './steps.ts';

/**
 * Every delivery is personal (issue 25): its List-Unsubscribe names the one recipient, and so does
 * the link to the member's page in its footer. Composing 100,000 copies whole would cost a few
 * hundred microseconds each, attachments encoded again every time; so a post is composed once, with
 * markers where the personal parts go, and each copy is the template's bytes around the encoded
 * personal parts (personalize). The text and HTML bodies are quoted-printable: a copy's body is the
 * shared part, encoded once, a soft line break, and the member's own footer, encoded alone.
 */
export interface PostTemplate {
  /** The bytes before, between and after the personal parts. */
  segments: [Buffer, Buffer, Buffer, Buffer];
  /** The shared body parts, already encoded. */
  text: string;
  htmlBefore: string;
  htmlAfter: string;
  /** Members may leave by themselves (the one-click header is offered). */
  canLeave: boolean;
  list: MailingList;
  /** What the list's ARC set says of a post that came by SMTP (transport.ts); null: none. */
  arc: ArcContext | null;
}

/**
 * What an ARC seal of a copy needs (issue 26 item 2, RFC 8617): the results verification found
 * when the post came in, how the chain it came with validated, and that chain's header fields, as
 * they came (CRLF after each), for the list's set to continue it.
 */
export interface ArcContext {
  results: ReceivedAuthentication['results'];
  cv: Exclude<ReceivedAuthentication['arc'], 'fail'>;
  chain: Buffer;
}

/** What one member's copy says that no other does. */
export interface PersonalParts {
  /** The List-Unsubscribe value (RFC 2369, RFC 8058); its List-Unsubscribe-Post is in the template. */
  listUnsubscribe: string;
  footerText: string;
  footerHtml: string;
}

export async function buildPostTemplate(
  list: MailingList,
  post: OutgoingPost,
  options: { now: Date; canLeave: boolean; steps?: readonly Step[] },
): Promise<PostTemplate> {
  const { now, canLeave, steps = POST_STEPS } = options;
  const source = post.source ? await simpleParser(post.source) : null;
  const input: StepInput = { list, post, source };
  let draft: Draft = {
    ...firstDraft(post, list.address, source?.date ?? now),
    ...threading(source),
    attachments: attachmentsOf(source),
    canLeave,
  };
  for (const step of steps) draft = step(draft, input);

  const marker = randomBytes(9).toString('hex');
  // Each marker holds a character outside ASCII, so the parts are always quoted-printable.
  const markers = {
    header: `LKU${marker}`,
    text: `\u2063LKT${marker}\u2063`,
    html: `\u2063LKH${marker}\u2063`,
  };
  const raw = await compose({
    from: draft.from,
    to: { name: '', address: draft.to },
    subject: draft.subject,
    messageId: draft.messageId,
    date: draft.date,
    textEncoding: 'quoted-printable',
    text: markers.text,
    html: markers.html,
    headers: {
      ...draft.headers,
      // Prepared: written as it is, never folded or encoded, so the marker stays whole.
      'List-Unsubscribe': { prepared: true, value: markers.header },
      ...(draft.canLeave ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
    },
    ...(draft.replyTo ? { replyTo: draft.replyTo } : {}),
    ...(draft.cc ? { cc: draft.cc } : {}),
    ...(draft.inReplyTo ? { inReplyTo: draft.inReplyTo } : {}),
    ...(draft.references ? { references: draft.references } : {}),
    attachments: draft.attachments,
  });
  const latin = raw.toString('latin1');
  const cuts = [markers.header, encoded(markers.text), encoded(markers.html)].map((m) => {
    const at = latin.indexOf(m);
    if (at === -1) throw new Error('a template marker is missing from the composed post');
    return [at, at + m.length] as const;
  });
  const [[h0, h1], [t0, t1], [m0, m1]] = cuts as [readonly [number, number], readonly [number, number], readonly [number, number]];
  return {
    segments: [
      raw.subarray(0, h0),
      raw.subarray(h1, t0),
      raw.subarray(t1, m0),
      raw.subarray(m1),
    ],
    text: encoded(draft.text),
    htmlBefore: encoded(draft.html.slice(0, draft.htmlSlot)),
    htmlAfter: encoded(draft.html.slice(draft.htmlSlot)),
    canLeave: draft.canLeave,
    list,
    arc: post.received ? arcContext(post.received, source) : null,
  };
}

/**
 * The ARC header fields a message came with, its chain to continue; none when it had no chain. A
 * chain that failed validation is not continued (null: no seal), as mailauth's own sealing does
 * not: a seal with `cv=fail` tells a receiver nothing it can use, and the broken sets are the
 * sender's header fields copied into every member's copy.
 */
function arcContext(received: ReceivedAuthentication, source: ParsedMail | null): ArcContext | null {
  if (received.arc === 'fail') return null;
  const lines =
    received.arc === 'none'
      ? []
      : (source?.headerLines ?? []).filter(({ key }) => ARC_FIELDS.has(key));
  return {
    results: received.results,
    cv: received.arc,
    chain: Buffer.from(lines.map(({ line }) => `${line.replace(/\r?\n/g, '\r\n')}\r\n`).join('')),
  };
}

const ARC_FIELDS = new Set(['arc-seal', 'arc-message-signature', 'arc-authentication-results']);

/** One member's copy of the post. */
export function personalize(template: PostTemplate, parts: PersonalParts): Buffer {
  const [head, beforeText, beforeHtml, tail] = template.segments;
  const html = [template.htmlBefore, encoded(parts.footerHtml), template.htmlAfter]
    .filter((part) => part !== '')
    .join(SOFT_BREAK);
  return Buffer.concat([
    head,
    Buffer.from(oneLine(parts.listUnsubscribe), 'latin1'),
    beforeText,
    Buffer.from(`${template.text}${SOFT_BREAK}${encoded(parts.footerText)}`, 'latin1'),
    beforeHtml,
    Buffer.from(html, 'latin1'),
    tail,
  ]);
}

/** A soft line break (RFC 2045 §6.7 rule 5): joins two encoded parts with nothing between. */
const SOFT_BREAK = '=\r\n';

function encoded(text: string): string {
  return qp.wrap(qp.encode(text), 76);
}

function threading(source: Awaited<ReturnType<typeof simpleParser>> | null) {
  const inReplyTo = source?.inReplyTo;
  const references = source?.references;
  return {
    ...(inReplyTo ? { inReplyTo: oneLine(inReplyTo) } : {}),
    ...(references
      ? { references: Array.isArray(references) ? references.map(oneLine) : oneLine(references) }
      : {}),
  };
}

function attachmentsOf(source: Awaited<ReturnType<typeof simpleParser>> | null): Mail.Attachment[] {
  return (source?.attachments ?? []).map((attachment) => ({
    filename: attachment.filename,
    content: attachment.content,
    contentType: attachment.contentType,
    ...(attachment.cid ? { cid: attachment.cid } : {}),
  }));
}

export function compose(options: Mail.Options): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    new MailComposer(options).compile().build((error, message) => {
      if (error) reject(error);
      else resolve(message);
    });
  });
}
