import * as z from 'zod/mini';
import { LIST_SETTINGS, ListUpdate, type List } from '../../../../api/schemas/list.ts';
import { CHOICES_BY_FIELD } from './choices.ts';

/**
 * The settings form's values: every writable list field (spec §2.4) in the API's own shape, plus
 * the write-only archive password (undefined: keep it; '': remove it; text: set it).
 */
export const ListSettingsValues = z.required(ListUpdate, {
  name: true,
  ...Object.fromEntries(LIST_SETTINGS.map((key) => [key, true])),
} as { name: true } & Record<(typeof LIST_SETTINGS)[number], true>);
export type ListSettingsValues = z.input<typeof ListSettingsValues>;
export type SettingKey = 'name' | (typeof LIST_SETTINGS)[number];
export const FORM_KEYS: readonly SettingKey[] = ['name', ...LIST_SETTINGS];

/** The form's starting values: the list as the server returned it. */
export function toFormValues(list: List): ListSettingsValues {
  const values: Record<string, unknown> = { name: list.name };
  for (const key of LIST_SETTINGS) values[key] = structuredClone(list[key]);
  values.archive_password = undefined;
  return values as ListSettingsValues;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Spec §1 rule 6: only the fields that changed go into the PUT. */
export function changedFields(
  initial: ListSettingsValues,
  current: ListSettingsValues,
): ListUpdate {
  const changes: Record<string, unknown> = {};
  for (const key of FORM_KEYS) {
    if (!same(initial[key], current[key])) changes[key] = current[key];
  }
  if (current.archive_password !== undefined) changes.archive_password = current.archive_password;
  return changes;
}

/** The words of the field names, for the summary of changes and for messages. */
export const FIELD_LABELS: Record<SettingKey | 'archive_password', string> = {
  name: 'Name',
  description: 'Description',
  notes: 'Notes',
  maxlength: 'Largest message (KB)',
  truncate: 'Truncate messages at (bytes)',
  subject_prefix: 'Subject prefix',
  moderator: 'Alternative moderator',
  memberview: 'Members can see other members',
  message_footer: 'Footer (plain text)',
  message_footer_html: 'Footer (HTML)',
  message_fronter: 'Fronter (plain text)',
  message_fronter_html: 'Fronter (HTML)',
  taboo_headers: 'Taboo header rules',
  taboo_body: 'Taboo body rules',
  reply_to: 'Reply-to address',
  strip_attachments: 'Strip attachments',
  subscriptions: 'Subscriptions',
  unsubscriptions: 'Unsubscriptions',
  hold_automated: 'Hold automated messages',
  hold_replies: 'Hold replies to the list',
  restrict_post_allowed_emails: 'Allowed addresses',
  restrict_post_banned_emails: 'Banned addresses',
  restrict_post_lists: 'Lists whose members may post',
  moderate: 'Moderation (moderate)',
  message_rejections: 'Messages that are not permitted',
  notify_approval: 'Notify of held messages',
  welcome_message: 'Welcome message',
  welcome_message_subject: 'Welcome message subject',
  confirmation_subject: 'Confirmation subject',
  confirmation_message: 'Confirmation message',
  hold_message: 'Hold message',
  hold_subject: 'Hold message subject',
  send_hold_message: 'Send the hold message',
  reject_message: 'Rejection message',
  reject_subject: 'Rejection message subject',
  send_reject_message: 'Send the rejection message',
  archive_enabled: 'Archives enabled',
  archive_spammode: 'Hide addresses in the archives',
  archive_protected: 'Protected archives',
  archive_memberview: 'Members may read protected archives',
  archive_index_noshow: 'Hidden from the archives index',
  archive_password: 'Archive password',
};

/** A value as the summary of changes shows it. */
export function displayValue(value: unknown): string {
  if (value === null) return 'not set';
  if (value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.join(', ');
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

export interface ChangeLine {
  key: string;
  label: string;
  before: string;
  after: string;
}

/** Each changed field as "label: old → new"; the archive password is never shown. */
export function describeChanges(initial: ListSettingsValues, changes: ListUpdate): ChangeLine[] {
  return Object.entries(changes).map(([key, after]) => {
    const label = FIELD_LABELS[key as SettingKey] ?? key;
    if (key === 'archive_password') {
      return {
        key,
        label,
        before: 'unchanged',
        after: after === '' ? 'removed' : 'a new password is set',
      };
    }
    const before = (initial as Record<string, unknown>)[key];
    const choices = CHOICES_BY_FIELD[key];
    const show = (value: unknown) => {
      const choice = choices?.find((candidate) => candidate.value === value);
      const text = choice ? choice.label : displayValue(value);
      return text.length > 80 ? `${text.slice(0, 79)}…` : text;
    };
    return { key, label, before: show(before), after: show(after) };
  });
}

/** The fields a server's refusal may name (`name: …`, `taboo_body.1: …`), for lib/server-field-error.ts. */
export const LIST_SERVER_FIELDS = Object.keys(FIELD_LABELS) as (SettingKey | 'archive_password')[];

/** Spec §2.4: the variables of the hold and reject messages, filled in for the preview. */
export function fillVariables(
  template: string,
  values: { subject: string; listAddress: string },
): string {
  return template
    .replaceAll('$SUBJECT', values.subject)
    .replaceAll('$LISTNAME', values.listAddress);
}

/** Inserts a token at the selection of a text field; returns the new text and caret position. */
export function insertAt(
  text: string,
  token: string,
  start: number | null,
  end: number | null,
): { text: string; caret: number } {
  const from = start ?? text.length;
  const to = end ?? from;
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}
