import { forgetBounces } from '../bounces/clear.ts';
import type { MemberOfList } from '../repositories/member-directory.repository.ts';
import {
  findMemberOfList,
  setEmailPaused,
} from '../repositories/member-directory.repository.ts';
import { updateMembershipDigest } from '../repositories/memberships.repository.ts';
import type { PublicList } from '../members/public-list.ts';
import { leaveByLink, type MembersContext } from '../members/workflow.ts';
import type { MemberAction } from './pages/member-page.ts';

/** One button of the member's page, done; answers the member as it is now and what to say. */
export async function applyMemberAction(
  ctx: MembersContext,
  list: PublicList,
  member: MemberOfList,
  action: MemberAction,
): Promise<{ member: MemberOfList; notice: string }> {
  let notice: string;
  switch (action) {
    case 'digest-on':
    case 'digest-off':
      if (member.membershipId === null) return { member, notice: 'This address is not a member.' };
      // Spec §2.3: the membership's digest overrides the address's.
      await updateMembershipDigest(ctx.db, list.accountId, member.membershipId, action === 'digest-on' ? 1 : 0);
      notice = action === 'digest-on' ? 'You will receive one daily digest.' : 'You will receive each message as it is sent.';
      break;
    case 'pause':
    case 'resume':
      await setEmailPaused(ctx.db, member.emailId, action === 'pause');
      // Issue 26: the member's own choice ends a pause that bounces made (and its warnings).
      await forgetBounces(ctx.db, member.emailId);
      notice = action === 'pause' ? 'Your mail is paused.' : 'Your mail is resumed.';
      break;
    case 'leave': {
      const outcome = await leaveByLink(ctx, list, member, 'web');
      notice =
        outcome.kind === 'waiting'
          ? 'Your request to leave waits for a moderator.'
          : outcome.kind === 'closed'
            ? 'Members of this list cannot leave on their own: ask its administrators.'
            : `You have left ${list.address}.`;
      break;
    }
  }
  const now = await findMemberOfList(ctx.db, list.accountId, list.id, { emailId: member.emailId });
  return { member: now ?? member, notice };
}
