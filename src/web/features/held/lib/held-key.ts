import type { HeldMessage } from '../../../../api/schemas/held.ts';

/** A held message's key for the table, the selection and the triage cursor. */
export const heldKey = (message: HeldMessage) => String(message.id);
