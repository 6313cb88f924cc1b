import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { simpleParser } from 'mailparser';
import { plainToHtml } from '../../api/message-content.ts';
import { listIdFor } from '../../api/posting-policy/message.ts';
import { oneLine } from '../../api/posting-policy/notice.ts';
import type { ListSettings } from '../repositories/lists.mapper.ts';

/** A list as its mail names it: `<name>@<the account's domain>`. */
export interface MailingList {
  name: string;
  address: string;
  settings: ListSettings;
}

/** An archived message on its way to the members (spec §2.5 fields). */
export interface OutgoingPost {
  subject: string;
  fromPhrase: string;
  fromAddress: string;
  messageId: string;
  contentPlain: string;
  contentHtml: string;
  /** The message as received by SMTP, for its attachments and threading headers; absent for API posts. */
  source?: Buffer;
}

/** Where bounces go: accepted and dropped by the listener (bounce processing is not done). */
export function bounceAddress(list: Pick<MailingList, 'address'>): string {
  const at = list.address.lastIndexOf('@');
  return `${list.address.slice(0, at)}-bounces${list.address.slice(at)}`;
}

/**
 * The RFC 2369/2919 list headers and the loop markers the posting policy looks for (SECURITY.md 36),
 * every value one line (SECURITY.md 37).
 */
export function listHeaders(list: Pick<MailingList, 'name' | 'address'>): Record<string, string> {
  const address = oneLine(list.address);
  return {
    'List-Id': `<${oneLine(listIdFor(list))}>`,
    'List-Post': `<mailto:${address}>`,
    'List-Unsubscribe': `<mailto:${address}?subject=unsubscribe>`,
    'X-Loop': address,
    'X-BeenThere': address,
    Precedence: 'list',
  };
}

/** Spec §2.4 subject_prefix: added once (a reply keeps the prefix it already has). */
export function prefixed(subject: string, prefix: string): string {
  const clean = oneLine(prefix).trim();
  const line = oneLine(subject);
  return clean === '' || line.includes(clean) ? line : `${clean} ${line}`;
}

/** Spec §2.4 truncate: the text cut at `bytes` bytes of UTF-8, never inside a character. */
export function truncateBytes(text: string, bytes: number | null): { text: string; cut: boolean } {
  if (bytes === null) return { text, cut: false };
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return { text, cut: false };
  let end = Math.max(0, bytes);
  // Back up over continuation bytes (10xxxxxx) to a character's start.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { text: encoded.subarray(0, end).toString('utf8'), cut: true };
}

function joinParts(parts: readonly string[], separator: string): string {
  return parts.filter((part) => part.trim() !== '').join(separator);
}

/** The fronter and footer around the HTML, inside its body element when it has one. */
function wrapHtml(html: string, fronter: string, footer: string): string {
  const open = /<body[^>]*>/i.exec(html);
  const close = html.search(/<\/body\s*>/i);
  if (open && close > open.index) {
    const start = open.index + open[0].length;
    return `${html.slice(0, start)}${fronter}${html.slice(start, close)}${footer}${html.slice(close)}`;
  }
  return `${fronter}${html}${footer}`;
}

/**
 * The message each member gets (spec §2.4): subject_prefix, fronter and footer (plain and HTML),
 * truncate, reply_to, strip_attachments, and the list headers. The same bytes for every recipient,
 * so one rendering serves a whole fan-out.
 */
export async function renderPost(list: MailingList, post: OutgoingPost): Promise<Buffer> {
  const s = list.settings;
  const source = post.source ? await simpleParser(post.source) : null;
  const body = truncateBytes(post.contentPlain, s.truncate);
  const text = joinParts([s.message_fronter, body.text, s.message_footer], '\n\n');
  const fronterHtml =
    s.message_fronter_html || (s.message_fronter ? plainToHtml(s.message_fronter) : '');
  const footerHtml =
    s.message_footer_html || (s.message_footer ? plainToHtml(s.message_footer) : '');
  // A cut message's HTML is made from its cut text: HTML cut at a byte count is broken markup.
  const html = body.cut || post.contentHtml === '' ? plainToHtml(body.text) : post.contentHtml;
  const headers: Record<string, string> = { ...listHeaders(list) };
  const inReplyTo = source?.inReplyTo;
  const references = source?.references;
  const options: Mail.Options = {
    from: { name: oneLine(post.fromPhrase), address: oneLine(post.fromAddress) },
    to: { name: '', address: list.address },
    subject: prefixed(post.subject, s.subject_prefix),
    messageId: oneLine(post.messageId),
    date: source?.date ?? new Date(),
    text,
    html: wrapHtml(html, fronterHtml, footerHtml),
    headers,
    ...(s.reply_to ? { replyTo: oneLine(s.reply_to) } : {}),
    ...(inReplyTo ? { inReplyTo: oneLine(inReplyTo) } : {}),
    ...(references
      ? { references: Array.isArray(references) ? references.map(oneLine) : oneLine(references) }
      : {}),
    attachments:
      s.strip_attachments || !source
        ? []
        : source.attachments.map((attachment) => ({
            filename: attachment.filename,
            content: attachment.content,
            contentType: attachment.contentType,
            ...(attachment.cid ? { cid: attachment.cid } : {}),
          })),
  };
  return compose(options);
}

/**
 * A notice (hold, reject, moderator, welcome, digest): plain text from the list, marked
 * Auto-Submitted (RFC 3834) so that auto-responders do not answer it, with the list's headers.
 */
export function renderNotice(notice: {
  from: string;
  to: string;
  subject: string;
  body: string;
  listAddress: string | null;
  listName?: string;
  autoSubmitted: 'auto-replied' | 'auto-generated';
  messageId: string;
}): Promise<Buffer> {
  const headers: Record<string, string> = { 'Auto-Submitted': notice.autoSubmitted };
  if (notice.listAddress) {
    const at = notice.listAddress.lastIndexOf('@');
    Object.assign(
      headers,
      listHeaders({
        name: notice.listName ?? notice.listAddress.slice(0, at),
        address: notice.listAddress,
      }),
    );
  }
  return compose({
    from: oneLine(notice.from),
    to: oneLine(notice.to),
    subject: oneLine(notice.subject),
    messageId: notice.messageId,
    text: notice.body,
    headers,
  });
}

function compose(options: Mail.Options): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    new MailComposer(options).compile().build((error, message) => {
      if (error) reject(error);
      else resolve(message);
    });
  });
}
