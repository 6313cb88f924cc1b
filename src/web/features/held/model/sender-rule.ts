import { MODERATE } from '../../../../api/constants.ts';
import type { ListUpdate } from '../../../../api/schemas/list.ts';

/**
 * Postorius' per-sender action in spec §2.4's words: a sender is accepted by being an allowed
 * address (`restrict_post_allowed_emails`, which counts where `moderate` chooses its senders,
 * 2 with 8), refused by being banned (`restrict_post_banned_emails`: held or rejected as
 * `message_rejections` says), and held by being neither where the list chooses its senders.
 * The spec has no setting that discards one sender's messages.
 */
export type SenderRule = 'accept' | 'hold' | 'reject';

export const SENDER_RULE_WORDS: Record<SenderRule, string> = {
  accept: 'Always accept',
  hold: 'Always hold',
  reject: 'Always reject',
};

/** The list settings a sender rule reads and writes (spec §2.4). */
export interface SenderSettings {
  moderate: number;
  restrict_post_allowed_emails: readonly string[];
  restrict_post_banned_emails: readonly string[];
}

/** One line of the change shown before saving: the setting, what it was, what it becomes. */
export interface SettingChange {
  setting: keyof SenderSettings;
  before: string;
  after: string;
}

export interface SenderRuleChange {
  /** Only the changed fields (spec §1 rule 6); empty when there is nothing to change. */
  body: ListUpdate;
  changes: SettingChange[];
  /** What the change cannot do, in a sentence, or null. */
  caveat: string | null;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const without = (list: readonly string[], address: string) =>
  list.filter((entry) => !same(entry, address));
const withAddress = (list: readonly string[], address: string) =>
  list.some((entry) => same(entry, address)) ? [...list] : [...list, address];
const words = (list: readonly string[]) => (list.length === 0 ? '(none)' : list.join(', '));

/** The settings that make `address` always accepted, held or refused on the list. */
export function senderRuleChange(
  settings: SenderSettings,
  address: string,
  rule: SenderRule,
): SenderRuleChange {
  const allowed =
    rule === 'accept'
      ? withAddress(settings.restrict_post_allowed_emails, address)
      : without(settings.restrict_post_allowed_emails, address);
  const banned =
    rule === 'reject'
      ? withAddress(settings.restrict_post_banned_emails, address)
      : without(settings.restrict_post_banned_emails, address);
  const chooses = (settings.moderate & MODERATE.specificSenders) !== 0;
  // Allowed addresses count only with 8 beside 2: accepting a sender of such a list adds 8.
  const moderate =
    rule === 'accept' && chooses ? settings.moderate | MODERATE.allowedEmails : settings.moderate;

  const body: ListUpdate = {};
  const changes: SettingChange[] = [];
  const lists = [
    ['restrict_post_allowed_emails', allowed],
    ['restrict_post_banned_emails', banned],
  ] as const;
  for (const [setting, after] of lists) {
    if (words(after) === words(settings[setting])) continue;
    body[setting] = after;
    changes.push({ setting, before: words(settings[setting]), after: words(after) });
  }
  if (moderate !== settings.moderate) {
    body.moderate = moderate;
    changes.push({
      setting: 'moderate',
      before: String(settings.moderate),
      after: String(moderate),
    });
  }
  return { body, changes, caveat: caveatOf(settings.moderate, rule, chooses) };
}

function caveatOf(moderate: number, rule: SenderRule, chooses: boolean): string | null {
  if ((moderate & MODERATE.holdAll) !== 0 && rule !== 'reject')
    return `The list holds every message (moderate ${moderate} includes 1), whoever sends it: this sender's messages are still held.`;
  if (rule === 'accept' && !chooses)
    return `The list does not choose its senders (moderate ${moderate} has no 2): the sender is allowed already, and messages held for another reason (size, taboo rules, replies) are still held.`;
  if (rule === 'hold' && !chooses)
    return `The list does not choose its senders (moderate ${moderate} has no 2): without a banned or allowed address, this sender's messages are held only for other reasons.`;
  if (rule === 'reject')
    return 'A banned sender’s messages are rejected, or held where message_rejections holds those not permitted.';
  return null;
}
