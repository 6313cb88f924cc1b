import { loopMarker } from '../message.ts';
import type { PostingRule } from './context.ts';

/** SECURITY.md 36: the list's own mail coming back is dropped, silently, before anything else. */
export const loopRule: PostingRule = ({ message, list }) => {
  const marker = loopMarker(message, list);
  if (marker === null) return null;
  return {
    rule: 'loop',
    action: 'discard',
    setting: null,
    reason: `The message is this list’s own mail coming back (${marker}); it is dropped so that the list never re-posts it.`,
  };
};

/** A message nobody can be answered about (a bounce's null sender): dropped, as Mailman 3 does. */
export const noSenderRule: PostingRule = ({ sender }) => {
  if (/^[^@\s]+@[^@\s]+$/.test(sender)) return null;
  return {
    rule: 'no-sender',
    action: 'discard',
    setting: null,
    reason:
      sender === ''
        ? 'The message has no sender address (a bounce or a broken message), so it is dropped.'
        : `The sender “${sender}” is not an email address, so the message is dropped.`,
  };
};

/**
 * A From header that names no one author (none, several fields or addresses, malformed: issue 28,
 * each let a forged sender through as an allowed one): held, whatever else the list allows, for
 * a moderator to look at. The receiving server says so; the dashboard's tester never does.
 */
export const fromHeaderRule: PostingRule = ({ authentication }) => {
  if (authentication.fromProblem === undefined) return null;
  return {
    rule: 'from-header',
    action: 'hold',
    setting: null,
    reason: `The From header ${authentication.fromProblem}, so nobody can tell who wrote the message; it is held for a moderator.`,
  };
};
