import * as z from 'zod/mini';
import {
  ARRAY_MAX_ITEMS,
  PASSWORD_MAX_LENGTH,
  LIST_NOTIFY_APPROVAL_VALUES,
  PATTERNS_MAX_ITEMS,
  SHORT_TEXT_MAX_LENGTH,
  TEXT_MAX_LENGTH,
  MEMBERVIEW_VALUES,
  MESSAGE_REJECTIONS_VALUES,
  MODERATE_MAX,
  SUBSCRIPTION_MODES,
} from '../constants.ts';
import {
  CreationDate,
  EmailAddress,
  Id,
  ListName,
  RegexSource,
  arrayOf,
  optionalAll,
  readOnly,
  text,
} from '../primitives.ts';

/** Free text of a list (descriptions, footers, the messages it sends). */
const longText = text(TEXT_MAX_LENGTH);
/** One line: subjects, a prefix. */
const line = text(SHORT_TEXT_MAX_LENGTH);
const subscriptionMode = z.nullable(z.enum(SUBSCRIPTION_MODES));
const moderate = z
  .int('must be a whole number')
  .check(
    z.gte(0, 'cannot be negative'),
    z.lte(MODERATE_MAX, `is a sum of the bits 1, 2, 4 and 8 (at most ${MODERATE_MAX})`),
  );
const messageRejections = z.nullable(z.union(MESSAGE_REJECTIONS_VALUES.map((v) => z.literal(v))));
const notifyApproval = z.nullable(z.union(LIST_NOTIFY_APPROVAL_VALUES.map((v) => z.literal(v))));

/** Spec §2.4: every list setting a client may write (`archive_password` is write-only). */
const settings = {
  description: longText,
  notes: longText,
  maxlength: z.int('must be a whole number of KB').check(z.nonnegative()),
  truncate: z.nullable(z.int('must be a whole number of bytes').check(z.positive())),
  subject_prefix: line,
  // The address notify_approval mails (spec §2.4), or none: never free text that reaches a header (SECURITY.md 37).
  moderator: z.union([z.literal(''), EmailAddress]),
  memberview: z.enum(MEMBERVIEW_VALUES),
  message_footer: longText,
  message_footer_html: longText,
  message_fronter: longText,
  message_fronter_html: longText,
  taboo_headers: arrayOf(RegexSource, PATTERNS_MAX_ITEMS),
  taboo_body: arrayOf(RegexSource, PATTERNS_MAX_ITEMS),
  reply_to: z.nullable(EmailAddress),
  strip_attachments: z.boolean(),
  subscriptions: subscriptionMode,
  unsubscriptions: subscriptionMode,
  hold_automated: z.boolean(),
  hold_replies: z.boolean(),
  restrict_post_allowed_emails: arrayOf(EmailAddress, ARRAY_MAX_ITEMS),
  restrict_post_banned_emails: arrayOf(EmailAddress, ARRAY_MAX_ITEMS),
  restrict_post_lists: arrayOf(ListName, ARRAY_MAX_ITEMS),
  moderate,
  message_rejections: messageRejections,
  notify_approval: notifyApproval,
  welcome_message: longText,
  welcome_message_subject: line,
  confirmation_subject: line,
  confirmation_message: longText,
  hold_message: longText,
  hold_subject: line,
  send_hold_message: z.boolean(),
  reject_message: longText,
  reject_subject: line,
  send_reject_message: z.boolean(),
  archive_enabled: z.boolean(),
  archive_spammode: z.boolean(),
  archive_protected: z.boolean(),
  archive_memberview: z.boolean(),
  archive_index_noshow: z.boolean(),
};

/**
 * List settings beyond spec v2, each with its reason in EXTENSION_FIELDS (src/api/operations.ts):
 * answered and taken beside the spec's, and neither with `EXTENSIONS=off`.
 */
const extensionSettings = {
  munge_from_always: z.boolean(),
};

/**
 * The settings as read: each in its JSON type, no rule of ours. Another API v2 server, or a list we
 * stored before a rule existed, may hold what our writes refuse (a free-text `moderator`, spec §2.4
 * "Alternative moderator"; a PCRE taboo rule; an address or list name outside our patterns; a text
 * past our maximum; a value or bit a newer server adds): the dashboard shows it, the form's write
 * schema names it on its field. Only writes are checked (`settings`).
 */
const readSettings = {
  description: z.string(),
  notes: z.string(),
  maxlength: z.int(),
  truncate: z.nullable(z.int()),
  subject_prefix: z.string(),
  moderator: z.string(),
  memberview: z.string(),
  message_footer: z.string(),
  message_footer_html: z.string(),
  message_fronter: z.string(),
  message_fronter_html: z.string(),
  taboo_headers: z.array(z.string()),
  taboo_body: z.array(z.string()),
  reply_to: z.nullable(z.string()),
  strip_attachments: z.boolean(),
  subscriptions: z.nullable(z.string()),
  unsubscriptions: z.nullable(z.string()),
  hold_automated: z.boolean(),
  hold_replies: z.boolean(),
  restrict_post_allowed_emails: z.array(z.string()),
  restrict_post_banned_emails: z.array(z.string()),
  restrict_post_lists: z.array(z.string()),
  moderate: z.int(),
  message_rejections: z.nullable(z.int()),
  notify_approval: z.nullable(z.int()),
  welcome_message: z.string(),
  welcome_message_subject: z.string(),
  confirmation_subject: z.string(),
  confirmation_message: z.string(),
  hold_message: z.string(),
  hold_subject: z.string(),
  send_hold_message: z.boolean(),
  reject_message: z.string(),
  reject_subject: z.string(),
  send_reject_message: z.boolean(),
  archive_enabled: z.boolean(),
  archive_spammode: z.boolean(),
  archive_protected: z.boolean(),
  archive_memberview: z.boolean(),
  archive_index_noshow: z.boolean(),
} satisfies Record<keyof typeof settings, z.ZodMiniType>;

/** Spec §2.4 as returned. `archive_password` never appears. */
export const List = z.looseObject({
  id: Id,
  name: z.string(),
  created: CreationDate,
  contacts: z.array(Id),
  /** Extension (LIST_QUERY_EXTENSIONS): the number of members, answered instead of their ids. */
  contacts_count: z.optional(z.int().check(z.nonnegative())),
  ...readSettings,
  /** Extension (EXTENSION_FIELDS): every post goes out From the list (DMARC mitigation, issue 26). */
  munge_from_always: z.optional(z.boolean()),
});
export type List = z.infer<typeof List>;

/**
 * Spec §4.4 get all, get one and update take no query parameters; `contacts=count` is a
 * reference-server extension (LIST_QUERY_EXTENSIONS).
 */
export const ListQuery = z.strictObject({
  contacts: z.optional(z.literal('count', 'must be count')),
});
export type ListQuery = z.infer<typeof ListQuery>;

/**
 * The query parameters of GET /lists/, GET /lists/:name/ and PUT /lists/:name/ beyond spec §4.4,
 * and why each exists.
 * Spec §8 rule 1 charges every returned object, a list's member ids included (SECURITY.md 30), so
 * a page that shows only how many members a list has would pay one object per member: with
 * `contacts=count` each list's `contacts` is answered empty, its length in `contacts_count`, and
 * the list costs one object.
 */
export const LIST_QUERY_EXTENSIONS = {
  contacts:
    "`count`: each list's member ids left out (`contacts` empty) and their number in `contacts_count`, so a client that shows only how many members a list has does not pay one object per member (spec §8 rule 1)",
} as const;

const writableSettings = optionalAll({ ...settings, ...extensionSettings });

const readOnlyFields = {
  id: readOnly(),
  created: readOnly(),
  contacts: readOnly('is read-only: add members through /membership/'),
};

/** Write-only: a blank value disables password access to the archives (spec §2.4). */
const archivePassword = { archive_password: z.optional(text(PASSWORD_MAX_LENGTH)) };

/** Spec §4.4 create: at minimum `name`. */
export const ListCreate = z.strictObject({
  ...readOnlyFields,
  name: ListName,
  ...writableSettings,
  ...archivePassword,
});
export type ListCreate = z.infer<typeof ListCreate>;

/** Spec §4.4 update: any list field; `name` renames the list. */
export const ListUpdate = z.strictObject({
  ...readOnlyFields,
  name: z.optional(ListName),
  ...writableSettings,
  ...archivePassword,
});
export type ListUpdate = z.infer<typeof ListUpdate>;

/** The list settings a client may write, in the spec's order: forms and tests walk it. */
export const LIST_SETTINGS = Object.keys(settings) as (keyof typeof settings)[];

/** The list settings beyond spec v2 (extensionSettings). */
export const LIST_EXTENSION_SETTINGS = Object.keys(extensionSettings) as (keyof typeof extensionSettings)[];

/** Spec §4.4 get all: "an array of list objects" in an object whose key the spec does not name. */
export const ListCollection = z.array(List);
