import { describeSetting } from '../effective.ts';
import type { PostingRule } from './context.ts';

/** A command word alone, perhaps with "me" or one address after it. */
const COMMAND = /^(subscribe|unsubscribe|join|leave|remove me|signoff)(\s+(me|\S+@\S+))?\s*[.!]?$/i;
/** Only short messages count: a real post that starts with the word is not a request. */
const MAX_BODY_LINES = 5;
/** A request is a few words; longer lines are not tried (and the pattern never sees a long text). */
const MAX_REQUEST_LENGTH = 200;

function requestIn(subject: string, body: string): 'subscribe' | 'unsubscribe' | null {
  const lines = body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const candidates = [subject.replace(/^((re|fwd?|aw)\s*:\s*)+/i, '').trim()];
  if (lines.length <= MAX_BODY_LINES && lines[0] !== undefined) candidates.push(lines[0]);
  for (const candidate of candidates) {
    if (candidate.length > MAX_REQUEST_LENGTH) continue;
    const found = COMMAND.exec(candidate);
    if (!found) continue;
    const word = (found[1] ?? '').toLowerCase();
    return word === 'subscribe' || word === 'join' ? 'subscribe' : 'unsubscribe';
  }
  return null;
}

/**
 * A request to join or leave sent to the list itself (Mailman 3's administrivia rule): held, so
 * that it does not go to every member, with the list's (or the account's) way of joining or
 * leaving in the reason.
 */
export const administriviaRule: PostingRule = ({ message, effective }) => {
  const request = requestIn(message.subject, message.body);
  if (request === null) return null;
  const setting = request === 'subscribe' ? 'subscriptions' : 'unsubscriptions';
  const mode = effective[setting];
  return {
    rule: 'administrivia',
    action: 'hold',
    setting,
    reason: `The message looks like a request to ${request}, not a post, so it is held rather than sent to every member; ${describeSetting(setting, mode)} says how this list takes such requests.`,
  };
};
