import * as z from 'zod';
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
  ceid: z.string().nullable(),
});
export type Email = z.infer<typeof Email>;

const writable = {
  digest: z.boolean().optional(),
  paused: z.boolean().optional(),
  ceid: text(ID_MAX_LENGTH).min(1).nullable().optional(),
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
  email: EmailAddress.optional(),
  ...writable,
});
export type EmailUpdate = z.infer<typeof EmailUpdate>;
