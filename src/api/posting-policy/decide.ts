import { ACCOUNT_NOTIFY_APPROVAL, MODERATE } from '../constants.ts';
import { describeSetting, effectiveSettings } from './effective.ts';
import { automatedMarker, normalizeAddress } from './message.ts';
import { administriviaRule } from './rules/administrivia.ts';
import { has, type PostingRule, type RuleContext } from './rules/context.ts';
import { automatedRule, replyRule, sizeRule } from './rules/holds.ts';
import { fromHeaderRule, loopRule, noSenderRule } from './rules/loop.ts';
import { bannedRule, chosenSender, chosenSendersRule, holdAllRule } from './rules/moderate.ts';
import { tabooBodyRule, tabooHeadersRule } from './rules/taboo.ts';
import { NOT_CHECKED, type PostingDecision, type PostingInput, type RuleHit } from './types.ts';

/**
 * The chain, in order (the spec does not fix one; this follows Mailman 3's default posting chain):
 * loop and sender first, then moderation (everything held, banned senders, chosen senders), then
 * the holds a moderator may wave through (automated, replies, size, taboo rules, requests).
 * A discard or a reject ends the chain; holds add up, so a moderator sees every reason.
 */
export const POSTING_CHAIN: readonly PostingRule[] = [
  loopRule,
  noSenderRule,
  fromHeaderRule,
  holdAllRule,
  bannedRule,
  chosenSendersRule,
  automatedRule,
  replyRule,
  sizeRule,
  tabooHeadersRule,
  tabooBodyRule,
  administriviaRule,
];

/**
 * What happens to a message sent to a list (spec §2.4): accept, hold, reject or discard, the rule
 * that decided and why in a sentence, whether the list manager is told and which message goes back
 * to the sender. Pure: the same input gives the same decision, on the server and in the dashboard.
 *
 * @example
 * const decision = decidePosting({ list, settings, account: {}, directory, message });
 * if (decision.action === 'hold') queue(message, decision.reason);
 */
export function decidePosting(input: PostingInput): PostingDecision {
  const context: RuleContext = {
    list: input.list,
    settings: input.settings,
    effective: effectiveSettings(input.settings, input.account),
    directory: input.directory,
    message: input.message,
    sender: normalizeAddress(input.message.from.address),
    authentication: input.authentication ?? NOT_CHECKED,
  };
  const hits: RuleHit[] = [];
  for (const rule of POSTING_CHAIN) {
    const hit = rule(context);
    if (hit === null) continue;
    hits.push(hit);
    if (hit.action === 'discard' || hit.action === 'reject') return finish(context, hit, hits);
  }
  const firstHold = hits.find((hit) => hit.action === 'hold');
  if (firstHold) return finishHold(context, firstHold, hits);
  return finish(context, accepted(context), hits);
}

/** Why an unstopped message goes out: nobody is restricted, or the sender is a chosen one. */
function accepted(context: RuleContext): RuleHit {
  const chosen = chosenSender(context);
  if (chosen?.permitted) {
    return {
      rule: 'permitted',
      action: 'accept',
      setting: 'moderate',
      reason: `The message goes out: ${chosen.why}, and no hold rule matched.`,
    };
  }
  const { moderate } = context.settings;
  const ignored =
    moderate !== MODERATE.none && !has(moderate, MODERATE.specificSenders)
      ? ', whose 4 and 8 count only with 2'
      : '';
  return {
    rule: 'open',
    action: 'accept',
    setting: 'moderate',
    reason: `The message goes out: anyone may post (moderate ${moderate}${ignored}), and no hold rule matched.`,
  };
}

/**
 * A held message, after `notify_approval` (the list's, else the account's): 0 and 1 say whether
 * the list manager is told; the account's 2 deletes every held message and 3 those not from a list
 * member (spec §2.7).
 */
function finishHold(context: RuleContext, hold: RuleHit, hits: RuleHit[]): PostingDecision {
  const notify = context.effective.notify_approval;
  const deletes =
    notify.value === ACCOUNT_NOTIFY_APPROVAL.deleteAllHeld
      ? 'deletes every message held for approval'
      : notify.value === ACCOUNT_NOTIFY_APPROVAL.deleteHeldFromNonMembers &&
          !context.directory.isMember(context.list.name, context.sender)
        ? 'deletes held messages from senders who are not members of the list, as this one is not'
        : null;
  if (deletes !== null) {
    const deleted: RuleHit = {
      rule: 'held-deleted',
      action: 'discard',
      setting: 'notify_approval',
      reason: `${hold.reason} Then ${describeSetting('notify_approval', notify)} ${deletes}, so it is dropped.`,
    };
    return finish(context, deleted, [...hits, deleted]);
  }
  return finish(context, hold, hits);
}

function finish(context: RuleContext, decisive: RuleHit, hits: RuleHit[]): PostingDecision {
  const { settings } = context;
  const notifyModerator =
    decisive.action === 'hold' &&
    context.effective.notify_approval.value === ACCOUNT_NOTIFY_APPROVAL.notifyListManager;
  const wanted =
    decisive.action === 'hold' && settings.send_hold_message
      ? 'hold'
      : decisive.action === 'reject' && settings.send_reject_message
        ? 'reject'
        : null;
  const suppressed = wanted === null ? null : whyNotTold(context);
  const decision: PostingDecision = {
    action: decisive.action,
    rule: decisive.rule,
    setting: decisive.setting,
    reason: decisive.reason,
    hits,
    notifyModerator,
    senderNotice: suppressed === null ? wanted : null,
  };
  if (suppressed !== null) {
    decision.noticeSuppressed = `The sender is not told (${wanted === 'hold' ? 'send_hold_message' : 'send_reject_message'} is on): ${suppressed}.`;
  }
  return decision;
}

/** Why a hold or reject message must not go to the From address, or null when it may. */
function whyNotTold(context: RuleContext): string | null {
  // RFC 3834 §2: never answer a program (it may answer back); a loop or a bounce is dropped anyway.
  const automated = automatedMarker(context.message);
  if (automated !== null)
    return `the message was sent by a program (${automated}), and answering it could start a loop`;
  // Issue 28: a notice to a forged From is backscatter, mail to someone who sent nothing.
  const { authentication } = context;
  if (authentication.result === 'fail')
    return `${authentication.detail}, so the From address may be forged, and the notice would go to someone who never wrote (backscatter)`;
  return null;
}
