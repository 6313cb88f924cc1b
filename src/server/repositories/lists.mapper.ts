import type { Selectable } from 'kysely';
import { LIST_EXTENSION_SETTINGS, LIST_SETTINGS, type List } from '../../api/schemas/list.ts';
import type { ListsTable } from '../db/schema.ts';

export type ListRow = Selectable<ListsTable>;

/**
 * Every spec §2.4 setting a client reads and writes (all but id, name, created, contacts), and the
 * reference server's own (LIST_EXTENSION_SETTINGS).
 */
export type ListSettings = Pick<List, (typeof LIST_SETTINGS)[number]> &
  Required<Pick<List, (typeof LIST_EXTENSION_SETTINGS)[number]>>;

/**
 * The settings of a new list, and of any setting a stored list does not hold yet. Texts are empty
 * and switches off, except where the safe or expected behaviour is on: automated mail is held,
 * senders hear why their message was held or rejected, archives are kept with addresses hidden.
 * `maxlength` 0 means no size limit; null values mean "use the account default" (spec §2.4).
 */
export const LIST_DEFAULTS: ListSettings = {
  description: '',
  notes: '',
  maxlength: 0,
  truncate: null,
  subject_prefix: '',
  moderator: '',
  memberview: '',
  message_footer: '',
  message_footer_html: '',
  message_fronter: '',
  message_fronter_html: '',
  taboo_headers: [],
  taboo_body: [],
  reply_to: null,
  strip_attachments: false,
  subscriptions: null,
  unsubscriptions: null,
  hold_automated: true,
  hold_replies: false,
  restrict_post_allowed_emails: [],
  restrict_post_banned_emails: [],
  restrict_post_lists: [],
  moderate: 0,
  message_rejections: null,
  notify_approval: null,
  welcome_message: '',
  welcome_message_subject: '',
  confirmation_subject: '',
  confirmation_message: '',
  hold_message: 'Your message "$SUBJECT" to $LISTNAME is held until a moderator approves it.',
  hold_subject: 'Your message to $LISTNAME is held for approval',
  send_hold_message: true,
  reject_message: 'Your message "$SUBJECT" to $LISTNAME was rejected.',
  reject_subject: 'Your message to $LISTNAME was rejected',
  send_reject_message: true,
  archive_enabled: true,
  archive_spammode: true,
  archive_protected: false,
  archive_memberview: false,
  archive_index_noshow: false,
  // Issue 26 item 2: only posts whose domain's DMARC policy asks for it go out From the list.
  munge_from_always: false,
};

/** Only the known settings leave the store: the bag never carries anything else to a client. */
export function pickSettings(source: Partial<Record<string, unknown>>): Partial<ListSettings> {
  const entries = [...LIST_SETTINGS, ...LIST_EXTENSION_SETTINGS]
    .filter((key) => source[key] !== undefined)
    .map((key) => [key, source[key]]);
  return Object.fromEntries(entries) as Partial<ListSettings>;
}

export function settingsOf(row: Pick<ListRow, 'settings'>): ListSettings {
  return { ...LIST_DEFAULTS, ...pickSettings(JSON.parse(row.settings) as Record<string, unknown>) };
}

/** Row → spec §2.4 list. `archive_password` is write-only and never part of the answer. */
export function toList(row: ListRow, contactIds: (number | string)[]): List {
  return {
    id: row.id,
    name: row.name,
    created: row.created,
    contacts: contactIds,
    ...settingsOf(row),
  };
}

/** Row → spec §2.4 list with its members counted, not listed (the `contacts=count` extension). */
export function toCountedList(row: ListRow, members: number): List {
  return { ...toList(row, []), contacts_count: members };
}
