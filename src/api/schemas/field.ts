import * as z from 'zod/mini';
import { ID_MAX_LENGTH } from '../constants.ts';
import { Id, ListName, readOnly } from '../primitives.ts';

/**
 * Reference-server extension (operations.ts `fields.*`): the account's custom contact fields (spec
 * §2.1 `<custom field>`), which spec v2 shows on every contact but gives no way to define, rename
 * or delete. A field has a `name` and an optional `identifier`; contacts and `limit_metadata`
 * (spec §2.6) name it by its identifier if defined, otherwise by its name: its `key`.
 */

/** An administrator whose `limit_metadata` (spec §2.6) names a field. */
export const FieldAdministrator = z.looseObject({
  id: Id,
  /** A person's username; null for an API version 2 key (spec §9 rule 3). */
  username: z.nullable(z.string()),
  /** A key's description; null for a person. */
  description: z.nullable(z.string()),
  /**
   * Whether the limit applies: spec §2.6 uses `limit_metadata` only while the administrator has
   * the `limit_metadata` permission.
   */
  limited: z.boolean(),
});
export type FieldAdministrator = z.infer<typeof FieldAdministrator>;

export const CustomField = z.looseObject({
  id: Id,
  name: z.string(),
  identifier: z.nullable(z.string()),
  /** How contacts and limit_metadata name it: the identifier, else the name (spec §2.1, §2.6). */
  key: z.string(),
  /** How many contacts of the account have a value for it. */
  contacts: z.int().check(z.nonnegative()),
  /**
   * The account's administrators whose `limit_metadata` names it; only for a caller who may read
   * administrators (spec §4.6: superadmin), absent otherwise.
   */
  administrators: z.optional(z.array(FieldAdministrator)),
});
export type CustomField = z.infer<typeof CustomField>;

/** The account's fields, oldest first, in an object whose key the API leaves to `data`. */
export const FieldCollection = z.array(CustomField);

/** A field's name: any text but none of spec §2.1's standard fields (the server refuses those). */
export const FIELD_NAME_MAX_LENGTH = ID_MAX_LENGTH;
export const FieldName = z.string().check(
  z.minLength(1, 'is required'),
  z.maxLength(FIELD_NAME_MAX_LENGTH, `has at most ${FIELD_NAME_MAX_LENGTH} characters`),
  z.refine((name) => name.trim() === name, 'cannot start or end with a space'),
);

/** An identifier follows the list-name rules (spec §8), so it is safe as a form field's name. */
export const FieldIdentifier = ListName;

const readOnlyFields = {
  id: readOnly(),
  key: readOnly('is read-only: it is the identifier, else the name'),
  contacts: readOnly(),
  administrators: readOnly('is read-only: set limit_metadata on the administrator (spec §2.6)'),
};

/** Defines a field: a name, and an identifier or none (null, sent as the empty string in a form). */
export const FieldCreate = z.strictObject({
  ...readOnlyFields,
  name: FieldName,
  identifier: z.nullish(FieldIdentifier),
});
export type FieldCreate = z.infer<typeof FieldCreate>;

/**
 * Renames a field: its name, its identifier (null, sent as the empty string in a form, removes
 * it), or both. Its
 * values stay; administrators' limit_metadata entries naming it follow the new key.
 */
export const FieldUpdate = z.strictObject({
  ...readOnlyFields,
  name: z.optional(FieldName),
  identifier: z.nullish(FieldIdentifier),
});
export type FieldUpdate = z.infer<typeof FieldUpdate>;

/**
 * Spec §1 rule 3's success object of a delete, with the field as it went: `contacts` is how many
 * contacts lost their value, `administrators` (for a caller who may read them) those whose
 * limit_metadata lost it: one limited to it alone is then limited to no field at all.
 */
export const FieldDeleted = z.looseObject({
  success: z.literal(1),
  field: CustomField,
});
export type FieldDeleted = z.infer<typeof FieldDeleted>;
