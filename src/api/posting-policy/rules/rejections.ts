import { MESSAGE_REJECTIONS } from '../../constants.ts';
import { describeSetting } from '../effective.ts';
import type { PostingAction } from '../types.ts';
import type { RuleContext } from './context.ts';

/**
 * Spec §2.4 `message_rejections`: what happens to a message the posting restrictions do not
 * permit, and the words for it. 0 holds; 1 holds it from a contact of the account and rejects it
 * otherwise; 2 and 3 reject it (3 also holds the permitted ones: see the moderate rule).
 */
export function unpermittedOutcome(context: RuleContext): { action: PostingAction; words: string } {
  const effective = context.effective.message_rejections;
  const setting = describeSetting('message_rejections', effective);
  switch (effective.value) {
    case MESSAGE_REJECTIONS.holdUnpermitted:
      return { action: 'hold', words: `${setting} holds such messages for approval` };
    case MESSAGE_REJECTIONS.holdFromContactsElseReject:
      return context.directory.isContact(context.sender)
        ? {
            action: 'hold',
            words: `the sender is a contact in the account, and ${setting} holds such messages from contacts for approval`,
          }
        : {
            action: 'reject',
            words: `the sender is not a contact in the account, and ${setting} rejects such messages from anyone else`,
          };
    default:
      return { action: 'reject', words: `${setting} rejects such messages` };
  }
}
