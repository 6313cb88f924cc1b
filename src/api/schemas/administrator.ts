import * as z from 'zod/mini';
import {
  ARRAY_MAX_ITEMS,
  EXPIRY_MONTHS,
  MFA_TYPES,
  NOTIFICATIONS,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PERMISSIONS,
  SHORT_TEXT_MAX_LENGTH,
} from '../constants.ts';
import { Cidr, EmailAddress, Id, ListName, arrayOf, flag, readOnly, text } from '../primitives.ts';

/**
 * Spec §2.6: users and API keys. `username` is absent for version 2 keys, `description` and `cidr`
 * apply to version 2 only (§9 rule 3); `password` and `can_write` are never returned.
 */
export const Administrator = z.looseObject({
  id: Id,
  username: z.nullish(z.string()),
  description: z.nullish(z.string()),
  firstname: z.string(),
  surname: z.string(),
  // Absent from a version 1 administrator, as `description` is (spec §9 rule 3).
  cidr: z.nullish(z.string()),
  custom_image: z.boolean(),
  // Read as text: a kind or permission a newer server adds (spec §2.6) must not hide the page;
  // writes take only the spec's values (`writable`).
  mfa_type: z.nullish(z.string()),
  api: z.int().check(z.nonnegative()),
  authn_provider: z.nullish(z.string()),
  notifications: z.array(z.string()),
  permissions: z.array(z.string()),
  limit_metadata: z.array(z.string()),
  limit_lists: z.array(z.string()),
  /**
   * Reference-server extension (not in spec v2): when the administrator's API keys stop working,
   * the latest expiry of its keys (ISO 8601, like the `expiry` of key retrieval, §4.6), in the past
   * once all have expired; null while one of them never expires. Absent when the administrator
   * has no key, and from servers without the extension. Read-only.
   */
  key_expiry: z.nullish(z.iso.datetime()),
});
export type Administrator = z.infer<typeof Administrator>;

const writable = {
  firstname: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
  surname: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
  description: z.optional(text(SHORT_TEXT_MAX_LENGTH)),
  cidr: z.nullish(Cidr),
  custom_image: z.optional(z.boolean()),
  mfa_type: z.nullish(z.enum(MFA_TYPES)),
  /** Spec §2.6: send a welcome email to a new administrator (default true). */
  welcome_email: z.optional(z.boolean()),
  /** Setting it replaces every existing value (spec §4.6). */
  notifications: z.optional(arrayOf(z.enum(NOTIFICATIONS), NOTIFICATIONS.length)),
  /** Setting it replaces every existing value (spec §4.6). */
  permissions: z.optional(arrayOf(z.enum(PERMISSIONS), PERMISSIONS.length)),
  limit_metadata: z.optional(
    arrayOf(text(SHORT_TEXT_MAX_LENGTH).check(z.minLength(1)), ARRAY_MAX_ITEMS),
  ),
  limit_lists: z.optional(arrayOf(ListName, ARRAY_MAX_ITEMS)),
  /**
   * The sign-in password of the reference server's OAuth login page. Write-only; the spec lists
   * `password` for version 1 only, so other servers may refuse it.
   */
  password: z.optional(
    text(PASSWORD_MAX_LENGTH).check(
      z.minLength(PASSWORD_MIN_LENGTH, `has at least ${PASSWORD_MIN_LENGTH} characters`),
    ),
  ),
};

const readOnlyFields = {
  id: readOnly(),
  api: readOnly(),
  authn_provider: readOnly(),
  can_write: readOnly('applies to API version 1 only: use permissions'),
  key_expiry: readOnly('is read-only: retrieve a key with get_key and expiry_months'),
};

/**
 * Spec §4.6 create: at minimum `username` (an email address for normal administrators). An API
 * version 2 key has no username but a `description` (§2.6, §9 rule 3; §5.1 rule 2: a key is an
 * administrator entry), so a body with `description` instead makes a key's entry: one or the other.
 */
export const AdministratorCreate = z
  .strictObject({
    ...readOnlyFields,
    username: z.optional(EmailAddress),
    ...writable,
  })
  .check(
    z.refine((u) => u.username !== undefined || u.description !== undefined, {
      message: 'is required (or a description, for an API key)',
      path: ['username'],
    }),
    z.refine((u) => u.username === undefined || u.description === undefined, {
      message: 'applies to API keys only, which have no username',
      path: ['description'],
    }),
  );
export type AdministratorCreate = z.infer<typeof AdministratorCreate>;

/**
 * Spec §4.6 update, and key retrieval: `get_key` with no value, optionally with `expiry_months`
 * of 1, 3, 6 or 12, answers the new key instead of the administrator.
 */
export const AdministratorUpdate = z
  .strictObject({
    ...readOnlyFields,
    username: z.optional(EmailAddress),
    ...writable,
    get_key: flag(),
    expiry_months: z.optional(
      z.union(
        EXPIRY_MONTHS.map((m) => z.literal(m)),
        {
          error: `is one of ${EXPIRY_MONTHS.join(', ')} months`,
        },
      ),
    ),
  })
  .check(
    z.refine((u) => u.expiry_months === undefined || u.get_key === true, {
      message: 'applies only with get_key',
      path: ['expiry_months'],
    }),
  );
export type AdministratorUpdate = z.infer<typeof AdministratorUpdate>;

/** Spec §4.6: the answer to key retrieval. */
export const RetrievedKey = z.looseObject({
  key: z.string().check(z.minLength(1)),
  expiry: z.nullish(z.string()),
});
export type RetrievedKey = z.infer<typeof RetrievedKey>;

/** Spec §4.6 get all: an array of administrators in an object whose key the spec does not name. */
export const AdministratorCollection = z.array(Administrator);
