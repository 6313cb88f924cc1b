import { commandAddress } from './links.ts';
import type { MailCommand } from './mail-commands.ts';
import { queueHelp, queueRequestOutcome } from './member-mail.ts';
import type { PublicList } from './public-list.ts';
import { takeAddressMail } from './throttle.ts';
import { askToJoin, askToLeave, confirmRequest, type MembersContext } from './workflow.ts';

/**
 * Does what a mail command asks (issue 25 item 4), for the address that sent it: joining and
 * leaving are asked as on the list's page, so the address confirms by the link mailed to it; a
 * reply to a confirmation (or its token in a `-request` subject) confirms, when it comes from the
 * address the request is for (SECURITY.md 44). Every answer is a plain-text mail, at most one an
 * hour to an address (SECURITY.md 43), and the caller never answers automated mail.
 */
export async function answerMailCommand(
  ctx: MembersContext,
  list: PublicList,
  command: MailCommand,
  sender: string,
): Promise<'asked' | 'confirmed' | 'helped' | 'ignored'> {
  switch (command.kind) {
    case 'join':
      return (await askToJoin(ctx, list, sender, 'mail')).kind === 'mailed' ? 'asked' : 'ignored';
    case 'leave':
      return (await askToLeave(ctx, list, sender, 'mail')).kind === 'mailed' ? 'asked' : 'ignored';
    case 'help':
      if (!(await takeAddressMail(ctx.db, sender.toLowerCase(), ctx.now))) return 'ignored';
      await queueHelp(ctx.db, list, sender, ctx.links.list(list.address), ctx.now);
      return 'helped';
    case 'confirm': {
      const outcome = await confirmRequest(ctx, list, command.token, 'confirmed by mail', sender);
      if (!('request' in outcome)) return 'ignored';
      await queueRequestOutcome(
        ctx.db,
        list,
        {
          to: outcome.request.address,
          kind: outcome.request.kind,
          outcome: outcome.kind === 'waiting' ? 'waiting' : 'done',
        },
        ctx.now,
      );
      return 'confirmed';
    }
  }
}

/** The help text's addresses, for the list's page and the mail. */
export function commandAddresses(list: Pick<PublicList, 'address'>) {
  return {
    join: commandAddress(list.address, 'join'),
    leave: commandAddress(list.address, 'leave'),
    request: commandAddress(list.address, 'request'),
  };
}
