import { MESSAGE_REJECTIONS, MODERATE } from '../../constants.ts';
import { describeSetting } from '../effective.ts';
import { normalizeAddress } from '../message.ts';
import { has, type PostingRule, type RuleContext } from './context.ts';
import { unpermittedOutcome } from './rejections.ts';

/** Spec §2.4 `moderate` 1: every message is held, whoever sent it; the other bits change nothing. */
export const holdAllRule: PostingRule = ({ settings }) => {
  if (!has(settings.moderate, MODERATE.holdAll)) return null;
  return {
    rule: 'hold-all',
    action: 'hold',
    setting: 'moderate',
    reason: `Every message is held for approval (moderate ${settings.moderate}${settings.moderate === MODERATE.holdAll ? '' : ' includes 1'}).`,
  };
};

const inList = (addresses: readonly string[], sender: string) =>
  addresses.some((address) => normalizeAddress(address) === sender);

/**
 * `restrict_post_banned_emails`: a banned sender is never permitted, whatever `moderate` says (the
 * dashboard's summary says the same); `message_rejections` decides between holding and rejecting.
 */
export const bannedRule: PostingRule = (context) => {
  if (!inList(context.settings.restrict_post_banned_emails, context.sender)) return null;
  const outcome = unpermittedOutcome(context);
  return {
    rule: 'banned-sender',
    action: outcome.action,
    setting: 'restrict_post_banned_emails',
    reason: `The sender is a banned address (restrict_post_banned_emails), so the message is not permitted; ${outcome.words}.`,
  };
};

/** The sender's domain, for reasons. */
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

/**
 * Whether the sender is one of the chosen senders of `moderate` 2 (spec §2.4): a member of a list
 * in `restrict_post_lists` (bit 4) or an address in `restrict_post_allowed_emails` (bit 8). Null
 * when the list does not choose its senders (bit 2 off, or bit 1 holding everything anyway): bits
 * 4 and 8 count only beside 2. A chosen address counts only when the message authenticates for its
 * domain (issue 28: a forged From went to every member): otherwise `forged` says why not.
 */
export function chosenSender(
  context: RuleContext,
): { permitted: boolean; why: string; forged?: string } | null {
  const { moderate } = context.settings;
  if (has(moderate, MODERATE.holdAll) || !has(moderate, MODERATE.specificSenders)) return null;
  const chosen = chosenBy(context);
  if (!chosen.permitted) return chosen;
  const { authentication, sender } = context;
  switch (authentication.result) {
    case 'pass':
      return chosen;
    case 'not-checked':
      return {
        permitted: true,
        why: `${chosen.why} (a server counts this only when the message authenticates for ${domainOf(sender)}: not checked here)`,
      };
    case 'fail':
      return {
        permitted: false,
        why: chosen.why,
        forged: `the message claims to come from ${sender}, who may post (${chosen.why}), but ${authentication.detail}, so it counts as an unknown sender`,
      };
  }
}

function chosenBy(context: RuleContext): { permitted: boolean; why: string } {
  const { settings, directory, sender } = context;
  const { moderate } = settings;
  const kinds: string[] = [];
  if (has(moderate, MODERATE.listMembers)) {
    const list = settings.restrict_post_lists.find((name) => directory.isMember(name, sender));
    if (list !== undefined) {
      return {
        permitted: true,
        why: `the sender is a member of ${list}, a list in restrict_post_lists (moderate ${moderate} includes 4)`,
      };
    }
    kinds.push(
      settings.restrict_post_lists.length === 0
        ? 'members of the lists in restrict_post_lists (none is chosen)'
        : `members of ${settings.restrict_post_lists.join(', ')} (restrict_post_lists)`,
    );
  }
  if (has(moderate, MODERATE.allowedEmails)) {
    if (inList(settings.restrict_post_allowed_emails, sender)) {
      return {
        permitted: true,
        why: `the sender is in restrict_post_allowed_emails (moderate ${moderate} includes 8)`,
      };
    }
    kinds.push('the addresses in restrict_post_allowed_emails');
  }
  return {
    permitted: false,
    why:
      kinds.length === 0
        ? `moderate ${moderate} lets only chosen senders post, but chooses none (neither 4 nor 8)`
        : `moderate ${moderate} lets only ${kinds.join(' and ')} post, and the sender is none of them`,
  };
}

/**
 * Spec §2.4 `moderate` 2 with 4 and 8, and `message_rejections`: a sender who is not chosen is
 * held or rejected; with `message_rejections` 3 the chosen senders' messages are held too. A chosen
 * address whose message does not authenticate is held, whatever `message_rejections` says: it may
 * be the chosen sender's mail forwarded on its way, for a moderator to tell.
 */
export const chosenSendersRule: PostingRule = (context) => {
  const chosen = chosenSender(context);
  if (chosen === null) return null;
  if (chosen.forged !== undefined) {
    return {
      rule: 'unauthenticated',
      action: 'hold',
      setting: 'moderate',
      reason: `The sender is not known to be permitted: ${chosen.forged}; the message is held for a moderator.`,
    };
  }
  if (!chosen.permitted) {
    const outcome = unpermittedOutcome(context);
    return {
      rule: 'not-permitted',
      action: outcome.action,
      setting: 'moderate',
      reason: `The sender is not permitted to post: ${chosen.why}; ${outcome.words}.`,
    };
  }
  const rejections = context.effective.message_rejections;
  if (rejections.value !== MESSAGE_REJECTIONS.holdAllRejectUnpermitted) return null;
  return {
    rule: 'approval-required',
    action: 'hold',
    setting: 'message_rejections',
    reason: `The sender is permitted (${chosen.why}), but ${describeSetting('message_rejections', rejections)} holds every message for approval.`,
  };
};
