import * as z from 'zod/mini';
import { ID_MAX_LENGTH } from '../constants.ts';
import { EmailAddress, Id, readOnly, text } from '../primitives.ts';

/** Spec §2.2. */
export const Email = z.looseObject({
  id: Id,
  contact: Id,
  email: z.string(),
  digest: z.boolean(),
  paused: z.boolean(),
  confirmed: z.boolean(),
  // Spec §2.2 names it without promising it: a server without custom identifiers may omit it.
  ceid: z.nullish(z.string()),
});
export type Email = z.infer<typeof Email>;

const writable = {
  digest: z.optional(z.boolean()),
  paused: z.optional(z.boolean()),
  ceid: z.nullish(text(ID_MAX_LENGTH).check(z.minLength(1))),
};

/** Spec §4.2 create: at minimum `email` and `contact`. */
export const EmailCreate = z.strictObject({
  id: readOnly(),
  confirmed: readOnly(),
  email: EmailAddress,
  contact: Id,
  ...writable,
});
export type EmailCreate = z.infer<typeof EmailCreate>;

/** Spec §4.2 update: `confirmed` is read-only; an address moves by being deleted and re-created. */
export const EmailUpdate = z.strictObject({
  id: readOnly(),
  confirmed: readOnly(),
  contact: readOnly('cannot be changed: add the address to the other contact instead'),
  email: z.optional(EmailAddress),
  ...writable,
});
export type EmailUpdate = z.infer<typeof EmailUpdate>;
