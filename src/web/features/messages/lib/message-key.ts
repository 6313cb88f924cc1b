import type { Message } from '../../../../api/schemas/message.ts';

/** A message's key for the table, the selection and the triage cursor. */
export const messageKey = (message: Message) => String(message.id);
