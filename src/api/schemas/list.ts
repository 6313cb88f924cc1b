import * as z from 'zod';
import {
  LIST_NOTIFY_APPROVAL_VALUES,
  MEMBERVIEW_VALUES,
  MESSAGE_REJECTIONS_VALUES,
  MODERATE_MAX,
  SUBSCRIPTION_MODES,
} from '../constants.ts';
import { EmailAddress, Id, ListName, RegexSource, optionalAll, readOnly } from '../primitives.ts';

const text = z.string();
const subscriptionMode = z.enum(SUBSCRIPTION_MODES).nullable();
const moderate = z
  .int('must be a whole number')
  .min(0, 'cannot be negative')
  .max(MODERATE_MAX, `is a sum of the bits 1, 2, 4 and 8 (at most ${MODERATE_MAX})`);
const messageRejections = z.union(MESSAGE_REJECTIONS_VALUES.map((v) => z.literal(v))).nullable();
const notifyApproval = z.union(LIST_NOTIFY_APPROVAL_VALUES.map((v) => z.literal(v))).nullable();

/** Spec §2.4: every list setting a client may write (`archive_password` is write-only). */
const settings = {
  description: text,
  notes: text,
  maxlength: z.int('must be a whole number of KB').nonnegative(),
  truncate: z.int('must be a whole number of bytes').positive().nullable(),
  subject_prefix: text,
  moderator: text,
  memberview: z.enum(MEMBERVIEW_VALUES),
  message_footer: text,
  message_footer_html: text,
  message_fronter: text,
  message_fronter_html: text,
  taboo_headers: z.array(RegexSource),
  taboo_body: z.array(RegexSource),
  reply_to: EmailAddress.nullable(),
  strip_attachments: z.boolean(),
  subscriptions: subscriptionMode,
  unsubscriptions: subscriptionMode,
  hold_automated: z.boolean(),
  hold_replies: z.boolean(),
  restrict_post_allowed_emails: z.array(EmailAddress),
  restrict_post_banned_emails: z.array(EmailAddress),
  restrict_post_lists: z.array(ListName),
  moderate,
  message_rejections: messageRejections,
  notify_approval: notifyApproval,
  welcome_message: text,
  welcome_message_subject: text,
  confirmation_subject: text,
  confirmation_message: text,
  hold_message: text,
  hold_subject: text,
  send_hold_message: z.boolean(),
  reject_message: text,
  reject_subject: text,
  send_reject_message: z.boolean(),
  archive_enabled: z.boolean(),
  archive_spammode: z.boolean(),
  archive_protected: z.boolean(),
  archive_memberview: z.boolean(),
  archive_index_noshow: z.boolean(),
};

/** Spec §2.4 as returned. `archive_password` never appears. */
export const List = z.looseObject({
  id: Id,
  name: z.string(),
  created: z.string(),
  contacts: z.array(Id),
  ...settings,
});
export type List = z.infer<typeof List>;

const writableSettings = optionalAll(settings);

const readOnlyFields = {
  id: readOnly(),
  created: readOnly(),
  contacts: readOnly('is read-only: add members through /membership/'),
};

/** Write-only: a blank value disables password access to the archives (spec §2.4). */
const archivePassword = { archive_password: z.string().optional() };

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
  name: ListName.optional(),
  ...writableSettings,
  ...archivePassword,
});
export type ListUpdate = z.infer<typeof ListUpdate>;

/** The list settings a client may write, in the spec's order: forms and tests walk it. */
export const LIST_SETTINGS = Object.keys(settings) as (keyof typeof settings)[];

/** Spec §4.4 get all: "an array of list objects" in an object whose key the spec does not name. */
export const ListCollection = z.array(List);
