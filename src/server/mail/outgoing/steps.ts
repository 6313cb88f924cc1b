import { plainToHtml } from '../../../api/message-content.ts';
import { listIdFor } from '../../../api/posting-policy/message.ts';
import { oneLine } from '../../../api/posting-policy/notice.ts';
import { dmarcMitigation } from './dmarc-mitigation.ts';
import type { Draft, Step } from './draft.ts';

/**
 * The outgoing path's handlers, in order (spec §2.4 settings on the way out). Each one answers
 * one question about the copy members get, so where a header or a line comes from is found by the
 * handler's name. Every value taken from a setting or a message is one line (SECURITY.md 37).
 */

/** Spec §2.4 truncate: the text cut at `truncate` bytes; a cut message's HTML is made from its text. */
export const truncate: Step = (draft, { list }) => {
  const body = truncateBytes(draft.text, list.settings.truncate);
  if (!body.cut) return draft;
  const html = plainToHtml(body.text);
  return { ...draft, text: body.text, html, htmlSlot: html.length };
};

/** Spec §2.4 subject_prefix: added once (a reply keeps the prefix it already has). */
export const subjectPrefix: Step = (draft, { list }) => ({
  ...draft,
  subject: prefixed(draft.subject, list.settings.subject_prefix),
});

/** Spec §2.4 message_fronter / message_footer, plain and HTML (the HTML ones else made from the plain). */
export const decorate: Step = (draft, { list }) => {
  const s = list.settings;
  const fronterHtml =
    s.message_fronter_html || (s.message_fronter ? plainToHtml(s.message_fronter) : '');
  const footerHtml =
    s.message_footer_html || (s.message_footer ? plainToHtml(s.message_footer) : '');
  const text = [s.message_fronter, draft.text, s.message_footer]
    .filter((part) => part.trim() !== '')
    .join('\n\n');
  const html = wrapHtml(draft.html, fronterHtml, footerHtml);
  return { ...draft, text, html: html.html, htmlSlot: html.slot };
};

/** Spec §2.4 reply_to: replies go there instead of to the sender. */
export const replyTo: Step = (draft, { list }) =>
  list.settings.reply_to ? { ...draft, replyTo: oneLine(list.settings.reply_to) } : draft;

/** Spec §2.4 strip_attachments. */
export const stripAttachments: Step = (draft, { list }) =>
  list.settings.strip_attachments ? { ...draft, attachments: [] } : draft;

/**
 * RFC 2369 and 2919 list headers, and the loop markers the posting policy looks for (SECURITY.md
 * 36). List-Unsubscribe itself is the member's own (personal.ts): only the template's slot is here.
 */
export const rfc2369: Step = (draft, { list }) => {
  const address = oneLine(list.address);
  return {
    ...draft,
    headers: {
      ...draft.headers,
      'List-Id': `<${oneLine(listIdFor(list))}>`,
      'List-Post': `<mailto:${address}>`,
      'X-Loop': address,
      'X-BeenThere': address,
      Precedence: 'list',
    },
  };
};

/** The handlers every post goes through, in this order. */
export const POST_STEPS: readonly Step[] = [
  truncate,
  subjectPrefix,
  decorate,
  replyTo,
  dmarcMitigation,
  stripAttachments,
  rfc2369,
];

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

/**
 * The fronter and footer around the HTML, inside its body element when it has one; `slot` is
 * where what follows the footer goes (before `</body>`).
 */
function wrapHtml(html: string, fronter: string, footer: string): { html: string; slot: number } {
  const open = /<body[^>]*>/i.exec(html);
  const close = html.search(/<\/body\s*>/i);
  if (open && close > open.index) {
    const start = open.index + open[0].length;
    const before = `${html.slice(0, start)}${fronter}${html.slice(start, close)}${footer}`;
    return { html: `${before}${html.slice(close)}`, slot: before.length };
  }
  const whole = `${fronter}${html}${footer}`;
  return { html: whole, slot: whole.length };
}

/** The draft before any handler: the post as archived, from the sender to the list. */
export function firstDraft(
  post: { subject: string; fromPhrase: string; fromAddress: string; messageId: string; contentPlain: string; contentHtml: string },
  listAddress: string,
  date: Date,
): Draft {
  const html = post.contentHtml === '' ? plainToHtml(post.contentPlain) : post.contentHtml;
  return {
    from: { name: oneLine(post.fromPhrase), address: oneLine(post.fromAddress) },
    to: listAddress,
    subject: post.subject,
    messageId: oneLine(post.messageId),
    date,
    headers: {},
    text: post.contentPlain,
    html,
    htmlSlot: html.length,
    attachments: [],
    canLeave: true,
  };
}
