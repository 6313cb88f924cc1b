import { listIdFor } from '../../api/posting-policy/message.ts';
import { oneLine } from '../../api/posting-policy/notice.ts';
import { commandAddress } from '../members/links.ts';
import type { ListSettings } from '../repositories/lists.mapper.ts';
import { compose } from './outgoing/template.ts';

/** A list as its mail names it: `<name>@<the account's domain>`. */
export interface MailingList {
  name: string;
  address: string;
  settings: ListSettings;
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
    // A notice is not a post: leaving is by mail to the list's -leave address (a post's own
    // List-Unsubscribe is personal, mail/outgoing/personal.ts).
    'List-Unsubscribe': `<mailto:${commandAddress(address, 'leave')}?subject=unsubscribe>`,
    'X-Loop': address,
    'X-BeenThere': address,
    Precedence: 'list',
  };
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
  /** A confirmation is answered by replying to it (`<list>-confirm+TOKEN@`, issue 25). */
  replyTo?: string | null;
  /** A digest's own List-Unsubscribe (issue 25), with RFC 8058's one-click when members may leave. */
  listUnsubscribe?: { value: string; oneClick: boolean };
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
  if (notice.listUnsubscribe) {
    headers['List-Unsubscribe'] = oneLine(notice.listUnsubscribe.value);
    if (notice.listUnsubscribe.oneClick)
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  return compose({
    from: oneLine(notice.from),
    to: oneLine(notice.to),
    subject: oneLine(notice.subject),
    messageId: notice.messageId,
    text: notice.body,
    headers,
    ...(notice.replyTo ? { replyTo: oneLine(notice.replyTo) } : {}),
  });
}
