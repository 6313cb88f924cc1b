import { automatedMarker, replyMarker } from '../message.ts';
import type { PostingSettings } from '../types.ts';
import type { PostingRule } from './context.ts';

/** Spec §2.4 `hold_automated` (SECURITY.md 36: auto-replies follow it). */
export const automatedRule: PostingRule = ({ settings, message }) => {
  if (!settings.hold_automated) return null;
  const marker = automatedMarker(message);
  if (marker === null) return null;
  return {
    rule: 'automated',
    action: 'hold',
    setting: 'hold_automated',
    reason: `The message was sent by a program (${marker}), and hold_automated holds automated messages for approval.`,
  };
};

/** Spec §2.4 `hold_replies`: a reply names the message it answers. */
export const replyRule: PostingRule = ({ settings, message }) => {
  if (!settings.hold_replies) return null;
  const marker = replyMarker(message);
  if (marker === null) return null;
  return {
    rule: 'reply',
    action: 'hold',
    setting: 'hold_replies',
    reason: `The message is a reply (${marker}), and hold_replies holds replies for approval.`,
  };
};

/** Bytes in a KB of `maxlength` (as Mailman's max_message_size). */
export const KB = 1024;

/**
 * Spec §2.4 `maxlength` (KB; 0: no limit). A message over it is rejected (issue 28: held, each
 * stored one more message a stranger could send to grow the database); the reference server's
 * listener refuses it before taking it (552, at RCPT when the sender declares its SIZE), so the
 * sender's own mail server tells them. Mailman 3 holds such mail instead.
 */
export function largestBytes(settings: Pick<PostingSettings, 'maxlength'>): number | null {
  return settings.maxlength > 0 ? settings.maxlength * KB : null;
}

export const sizeRule: PostingRule = ({ settings, message }) => {
  const largest = largestBytes(settings);
  if (largest === null || message.size <= largest) return null;
  const kb = Math.ceil(message.size / KB);
  return {
    rule: 'too-large',
    action: 'reject',
    setting: 'maxlength',
    reason: `The message is ${kb} KB, over the list’s maxlength of ${settings.maxlength} KB, so it is refused.`,
  };
};
