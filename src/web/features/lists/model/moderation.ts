import { MODERATE } from '../../../../api/constants.ts';

/**
 * The `moderate` bit flags (spec §2.4) and the settings around them in plain words. Pure: the
 * summary above the moderation editor is derived from the form values on every change.
 */
export interface ModerationSettings {
  moderate: number;
  message_rejections: number | null;
  notify_approval: number | null;
  restrict_post_lists: string[];
  restrict_post_allowed_emails: string[];
  restrict_post_banned_emails: string[];
  send_hold_message: boolean;
  send_reject_message: boolean;
}

export interface ModerationSummary {
  whoMayPost: string;
  everyoneElse: string;
  whoIsTold: string;
}

const has = (value: number, bit: number) => (value & bit) === bit;

/** The choice a person makes: nobody moderated, everything held, or only chosen senders. */
export type ModerationMode = 'none' | 'hold-all' | 'chosen-senders';

export function modeOf(moderate: number): ModerationMode {
  if (has(moderate, MODERATE.holdAll)) return 'hold-all';
  if (has(moderate, MODERATE.specificSenders)) return 'chosen-senders';
  return 'none';
}

/** Why a `moderate` value is impossible or pointless, in words (empty when it is sound). */
export function moderationProblems(
  settings: Pick<
    ModerationSettings,
    'moderate' | 'restrict_post_lists' | 'restrict_post_allowed_emails'
  >,
): string[] {
  const { moderate } = settings;
  const problems: string[] = [];
  const chosen = has(moderate, MODERATE.specificSenders);
  const lists = has(moderate, MODERATE.listMembers);
  const emails = has(moderate, MODERATE.allowedEmails);
  if (has(moderate, MODERATE.holdAll) && moderate !== MODERATE.holdAll) {
    problems.push(
      'Every message is held (1), so the other flags change nothing: a held message waits for approval whoever sent it.',
    );
    return problems;
  }
  if ((lists || emails) && !chosen) {
    problems.push(
      `${lists && emails ? 'Members of the chosen lists (4) and the allowed addresses (8) count' : lists ? 'Members of the chosen lists (4) count' : 'The allowed addresses (8) count'} only when "only chosen senders may post" (2) is on; as it is, they are ignored.`,
    );
  }
  if (chosen && !lists && !emails) {
    problems.push(
      'Only chosen senders may post (2), but no kind of sender is chosen (4 or 8): no message is permitted.',
    );
  }
  if (chosen && lists && settings.restrict_post_lists.length === 0) {
    problems.push('Members of the chosen lists may post (4), but no list is chosen.');
  }
  if (chosen && emails && settings.restrict_post_allowed_emails.length === 0) {
    problems.push(
      'The allowed addresses may post (8), but the list of allowed addresses is empty.',
    );
  }
  return problems;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

/** What happens to a message that fails the posting restrictions (spec §2.4 message_rejections). */
export function rejectionOutcome(rejections: number | null): string {
  switch (rejections) {
    case null:
      return 'What happens to their messages follows the account’s default setting.';
    case 0:
      return 'Their messages are held for approval.';
    case 1:
      return 'Their messages are held for approval if they are a contact in the account; otherwise they are rejected.';
    case 2:
      return 'Their messages are rejected.';
    case 3:
      return 'Their messages are rejected.';
    default:
      return `Unknown rejection setting (${String(rejections)}).`;
  }
}

/** A plain-language summary of who may post, what happens to everyone else, and who is told. */
export function summarizeModeration(settings: ModerationSettings): ModerationSummary {
  const { moderate, message_rejections: rejections } = settings;
  const mode = modeOf(moderate);
  const banned = settings.restrict_post_banned_emails.length;
  const bannedNote =
    banned > 0
      ? ` ${plural(banned, 'banned address is', 'banned addresses are')} never allowed to post.`
      : '';

  let whoMayPost: string;
  let everyoneElse: string;
  let rejectionsPossible = false;
  if (mode === 'hold-all') {
    whoMayPost = 'Anyone may send, but every message is held for approval before it goes out.';
    everyoneElse = `No sender is treated differently: every message waits for approval.${bannedNote}`;
  } else if (mode === 'none') {
    whoMayPost = 'Anyone may post; messages go out without approval.';
    everyoneElse = `Nobody is restricted (taboo rules and the hold settings can still hold a message).${bannedNote}`;
  } else {
    const senders: string[] = [];
    if (has(moderate, MODERATE.listMembers)) {
      const lists = settings.restrict_post_lists;
      senders.push(
        lists.length === 0
          ? 'members of the chosen lists (none chosen yet)'
          : `members of ${lists.length === 1 ? 'the list' : 'the lists'} ${joinAnd(lists)}`,
      );
    }
    if (has(moderate, MODERATE.allowedEmails)) {
      const count = settings.restrict_post_allowed_emails.length;
      senders.push(
        count === 0
          ? 'the allowed addresses (none listed yet)'
          : `the ${plural(count, 'allowed address', 'allowed addresses')}`,
      );
    }
    const approvalNote = rejections === 3 ? ', and their messages are held for approval too' : '';
    whoMayPost =
      senders.length === 0
        ? 'Nobody is permitted: only chosen senders may post, but none are chosen.'
        : `Only ${joinAnd(senders)} may post${approvalNote}.`;
    everyoneElse = `Everyone else is not permitted. ${rejectionOutcome(rejections)}${bannedNote}`;
    rejectionsPossible = rejections !== 0;
  }
  if (mode !== 'chosen-senders' && banned > 0) rejectionsPossible = true;

  const told: string[] = [];
  switch (settings.notify_approval) {
    case null:
      told.push('Whether the list manager is told of held messages follows the account’s default.');
      break;
    case 0:
      told.push('Nobody is notified when a message is held.');
      break;
    case 1:
      told.push('The list manager is notified whenever a message is held.');
      break;
    default:
      told.push(`Unknown notification setting (${String(settings.notify_approval)}).`);
  }
  told.push(
    settings.send_hold_message
      ? 'The sender of a held message gets the hold message.'
      : 'The sender of a held message is not told.',
  );
  if (rejectionsPossible) {
    told.push(
      settings.send_reject_message
        ? 'The sender of a rejected message gets the rejection message.'
        : 'The sender of a rejected message is not told.',
    );
  }
  return { whoMayPost, everyoneElse, whoIsTold: told.join(' ') };
}

/** A one-click repair for a pointless `moderate` value, when there is an obvious one. */
export function suggestedFix(moderate: number): { label: string; value: number } | null {
  const holdAll = has(moderate, MODERATE.holdAll);
  if (holdAll && moderate !== MODERATE.holdAll) {
    return { label: 'Keep only “every message held” (1)', value: MODERATE.holdAll };
  }
  const senders = moderate & (MODERATE.listMembers | MODERATE.allowedEmails);
  if (!holdAll && senders !== 0 && !has(moderate, MODERATE.specificSenders)) {
    const value = moderate | MODERATE.specificSenders;
    return { label: `Turn on “only chosen senders may post” (${value})`, value };
  }
  return null;
}
