import type { SMTPServerSession } from 'smtp-server';
import { largestBytes } from '../../api/posting-policy/rules/holds.ts';
import { settingsOf } from '../repositories/lists.mapper.ts';
import type { ReceivingList } from './recipient.ts';

/**
 * How large a message the listener takes for its lists (issue 28 item 2): the list's `maxlength`
 * (spec §2.4, KB) is refused before anything is stored, rather than decided on once received
 * whole (the posting policy refuses it too: src/api/posting-policy/rules/holds.ts).
 */

/** The size the client declared with MAIL FROM (RFC 1870 SIZE), or null when it did not. */
export function declaredSize(session: SMTPServerSession): number | null {
  const from = session.envelope.mailFrom;
  const size = from === false || from.args === false ? undefined : from.args.SIZE;
  if (typeof size !== 'string' || !/^\d{1,15}$/.test(size)) return null;
  return Number(size);
}

/** The largest message `list` takes, in bytes, or null when it sets no `maxlength`. */
export function listLimit(list: ReceivingList): number | null {
  return largestBytes(settingsOf(list));
}

/**
 * The most of a message worth reading for these lists: the largest any of them takes, at most
 * `maxBytes` (SMTP_IN_MAX_BYTES). Past it, the message is refused (552) while it streams in.
 */
export function readLimit(lists: readonly ReceivingList[], maxBytes: number): number {
  if (lists.length === 0) return maxBytes;
  const limits = lists.map((list) => listLimit(list) ?? maxBytes);
  return Math.min(maxBytes, Math.max(...limits));
}
