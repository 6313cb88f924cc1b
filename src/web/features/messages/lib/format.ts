import type { Message } from '../../../../api/schemas/message.ts';

/** The subject as shown; a message may have none (spec §4.5 makes it optional). */
export function subjectOf(message: Pick<Message, 'subject'>): string {
  return message.subject.trim() || '(no subject)';
}

/** The sender as a From header shows it: `Ann Lee <ann@example.org>`, or the address alone. */
export function senderOf(message: Pick<Message, 'from_phrase' | 'from_address'>): string {
  const phrase = message.from_phrase.trim();
  return phrase ? `${phrase} <${message.from_address}>` : message.from_address;
}

/** Spec §2.5: `time` is Unix time in seconds. */
export function sentAt(message: Pick<Message, 'time'>): Date {
  return new Date(message.time * 1000);
}
