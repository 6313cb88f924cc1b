import * as z from 'zod/mini';
import {
  ACCOUNT_NOTIFY_APPROVAL_VALUES,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PAGE_LIMITS,
  PATTERNS_MAX_ITEMS,
  SHORT_TEXT_MAX_LENGTH,
  SUBSCRIPTION_MODES,
  TEXT_MAX_LENGTH,
  URL_MAX_LENGTH,
} from '../constants.ts';
import {
  AccountName,
  EmailAddress,
  Id,
  RegexSource,
  arrayOf,
  optionalAll,
  pageQuery,
  readOnly,
  text,
} from '../primitives.ts';

/** Spec §2.7 basic fields as returned by get all. */
export const Account = z.looseObject({
  id: Id,
  name: z.string(),
  description: z.string(),
  lists: z.array(z.string()),
  users: z.array(z.looseObject({ id: Id, username: z.nullable(z.string()) })),
});
export type Account = z.infer<typeof Account>;

/** Spec §2.7 additional fields, read and written on a single account. */
const details = {
  confirmation_message: text(TEXT_MAX_LENGTH),
  confirmation_subject: text(SHORT_TEXT_MAX_LENGTH),
  welcome_message: text(TEXT_MAX_LENGTH),
  send_welcome_message_confirmation: z.boolean(),
  send_welcome_message_contacts: z.boolean(),
  timezone: text(SHORT_TEXT_MAX_LENGTH),
  custom_image: text(URL_MAX_LENGTH),
  notify_approval: z.union(ACCOUNT_NOTIFY_APPROVAL_VALUES.map((v) => z.literal(v))),
  subscriptions: z.enum(SUBSCRIPTION_MODES),
  unsubscriptions: z.enum(SUBSCRIPTION_MODES),
  list_delegation: z.boolean(),
  restrict_contact: arrayOf(RegexSource, PATTERNS_MAX_ITEMS),
  restrict_contact_subscription: arrayOf(RegexSource, PATTERNS_MAX_ITEMS),
  require_list_approval: z.boolean(),
};

/**
 * The additional fields as read: each in its JSON type, no rule of ours. Another API v2 server, or
 * an account we stored before a rule existed, may hold what our writes refuse (a PCRE pattern in
 * `restrict_contact`, a longer text or image URL, a value a newer server adds to `notify_approval`
 * or `subscriptions`, spec §2.7): the dashboard shows it, the form names it. Writes: `details`.
 */
const readDetails = {
  confirmation_message: z.string(),
  confirmation_subject: z.string(),
  welcome_message: z.string(),
  send_welcome_message_confirmation: z.boolean(),
  send_welcome_message_contacts: z.boolean(),
  timezone: z.string(),
  custom_image: z.string(),
  notify_approval: z.int(),
  subscriptions: z.string(),
  unsubscriptions: z.string(),
  list_delegation: z.boolean(),
  restrict_contact: z.array(z.string()),
  restrict_contact_subscription: z.array(z.string()),
  require_list_approval: z.boolean(),
} satisfies Record<keyof typeof details, z.ZodMiniType>;

/**
 * Reference-server extensions (DESIGN.md "Tenancy"): the plan's maximum address-book size, which
 * sets the hourly rate-limit allowance (spec §8 rule 2), and whether ccid is enabled (spec §2.1).
 * Optional on read so that other API v2 servers, which do not send them, still parse.
 */
const extensions = {
  max_contacts: z.int().check(z.positive()),
  ccid: z.boolean(),
};

/** Spec §2.7: a single account with every field. */
export const AccountDetail = z.extend(Account, {
  ...readDetails,
  max_contacts: z.optional(extensions.max_contacts),
  ccid: z.optional(extensions.ccid),
});
export type AccountDetail = z.infer<typeof AccountDetail>;

const readOnlyFields = {
  id: readOnly(),
  lists: readOnly(),
  users: readOnly(),
};

/** Spec §4.7 create. `domain` and `administrator` exist on create only. */
export const AccountCreate = z.strictObject({
  ...readOnlyFields,
  name: AccountName,
  description: z.optional(text(TEXT_MAX_LENGTH)),
  domain: z.optional(text(SHORT_TEXT_MAX_LENGTH).check(z.minLength(1))),
  /** The initial administrator's username (an email address); the spec does not show a format. */
  administrator: z.optional(EmailAddress),
  ...optionalAll(details),
  ...optionalAll(extensions),
});
export type AccountCreate = z.infer<typeof AccountCreate>;

/** Spec §4.7 update: any account field. */
export const AccountUpdate = z.strictObject({
  ...readOnlyFields,
  domain: readOnly('is set when the account is created'),
  administrator: readOnly('is set when the account is created'),
  name: z.optional(AccountName),
  description: z.optional(text(TEXT_MAX_LENGTH)),
  ...optionalAll(details),
  ...optionalAll(extensions),
});
export type AccountUpdate = z.infer<typeof AccountUpdate>;

/** Spec §4.7 filters (listed under get one; the reference server accepts them on get all too). */
export const AccountQuery = z.strictObject({
  ...pageQuery(PAGE_LIMITS.accounts.max),
  listname: z.optional(text(NAME_MAX_LENGTH)),
  username: z.optional(text(EMAIL_MAX_LENGTH)),
  description: z.optional(text(TEXT_MAX_LENGTH)),
});
export type AccountQuery = z.infer<typeof AccountQuery>;

/** Spec §4.7 get all: "a JSON list of account objects". */
export const AccountCollection = z.array(Account);

/** Spec §2.7 account fields that exist only on a single account. */
export const ACCOUNT_DETAIL_FIELDS = Object.keys(details) as (keyof typeof details)[];
