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
