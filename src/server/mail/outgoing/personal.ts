import { escapeHtml } from '../../../api/message-content.ts';
import { commandAddress } from '../../members/links.ts';
import type { MailingList } from './draft.ts';
import type { PersonalParts } from './template.ts';

/**
 * What a delivery says to its one recipient (issue 25): RFC 8058 one-click leave by HTTPS, with
 * RFC 2369's mailto beside it for mail programs that only write, and a link to the member's own
 * page in the footer. `oneClick` is null when the list lets no member leave by themselves.
 */
export function personalParts(
  list: Pick<MailingList, 'address'>,
  links: { oneClick: string | null; memberPage: string },
): PersonalParts {
  const leave = `<mailto:${commandAddress(list.address, 'leave')}?subject=unsubscribe>`;
  return {
    listUnsubscribe: links.oneClick ? `<${links.oneClick}>, ${leave}` : leave,
    footerText: `\n\n-- \nYou receive this as a member of ${list.address}.\nYour membership (digest, pause, leave): ${links.memberPage}\n`,
    footerHtml: `<hr><p style="font-size:small">You receive this as a member of ${escapeHtml(list.address)}. <a href="${escapeHtml(links.memberPage)}">Your membership</a>: a digest, a pause, or leave.</p>`,
  };
}
