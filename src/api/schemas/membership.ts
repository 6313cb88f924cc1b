import * as z from 'zod/mini';
import { Id, ListName, readOnly } from '../primitives.ts';

/**
 * Spec §2.3. `digest` has three states: null keeps the address's own setting, true forces the
 * daily digest, false forces no digest.
 */
export const Membership = z.looseObject({
  id: Id,
  contact: Id,
  list: z.string(),
  // Read also in the spec's own words (§2.3): 1, 0, and undefined (absent) for the default.
  digest: z.pipe(
    z.optional(z.nullable(z.union([z.boolean(), z.literal(0), z.literal(1)]))),
    z.transform((digest) => (digest === undefined || digest === null ? null : Boolean(digest))),
  ),
});
export type Membership = z.infer<typeof Membership>;

/** Spec §4.3 create: at minimum `contact` (ID) and `list` (name). */
export const MembershipCreate = z.strictObject({
  id: readOnly(),
  contact: Id,
  list: ListName,
  digest: z.nullish(z.boolean()),
});
export type MembershipCreate = z.infer<typeof MembershipCreate>;

/** Spec §4.3 update: a membership changes only its digest; moving it is a delete and a create. */
export const MembershipUpdate = z.strictObject({
  id: readOnly(),
  contact: readOnly('cannot be changed: remove the membership and add a new one'),
  list: readOnly('cannot be changed: remove the membership and add a new one'),
  digest: z.nullish(z.boolean()),
});
export type MembershipUpdate = z.infer<typeof MembershipUpdate>;
