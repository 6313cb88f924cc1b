import { describe, expect, it } from 'vitest';
import type { List } from '../../../../api/schemas/list.ts';
import {
  ListSettingsValues,
  changedFields,
  describeChanges,
  fillVariables,
  insertAt,
  LIST_SERVER_FIELDS,
  toFormValues,
} from './list-form.ts';
import { ApiError } from '../../../../api/errors.ts';
import { serverFieldError } from '../../../lib/server-field-error.ts';

const list: List = {
  id: 1,
  name: 'news',
  created: '2026-01-01 00:00:00',
  contacts: [3],
  description: 'Monthly',
  notes: '',
  maxlength: 100,
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
  hold_automated: false,
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
  hold_message: '',
  hold_subject: '',
  send_hold_message: false,
  reject_message: '',
  reject_subject: '',
  send_reject_message: false,
  archive_enabled: false,
  archive_spammode: false,
  archive_protected: false,
  archive_memberview: false,
  archive_index_noshow: false,
};

describe('list settings form model', () => {
  it('starts from the list and validates with the contract', () => {
    const values = toFormValues(list);
    expect(ListSettingsValues.safeParse(values).success).toBe(true);
    expect(values).not.toHaveProperty('id');
    expect(values).not.toHaveProperty('contacts');
  });

  it('sends only the changed fields (spec §1 rule 6)', () => {
    const initial = toFormValues(list);
    expect(changedFields(initial, structuredClone(initial))).toEqual({});
    const current = {
      ...structuredClone(initial),
      moderate: 10,
      restrict_post_allowed_emails: ['a@example.com'],
      reply_to: 'x@example.com',
    };
    expect(changedFields(initial, current)).toEqual({
      moderate: 10,
      restrict_post_allowed_emails: ['a@example.com'],
      reply_to: 'x@example.com',
    });
    expect(changedFields(initial, { ...initial, archive_password: '' })).toEqual({
      archive_password: '',
    });
  });

  it('describes changes without ever showing the password', () => {
    const initial = toFormValues(list);
    const lines = describeChanges(initial, {
      moderate: 6,
      archive_password: 's3cret',
      reply_to: null,
    });
    expect(lines).toEqual([
      { key: 'moderate', label: 'Moderation (moderate)', before: '0', after: '6' },
      {
        key: 'archive_password',
        label: 'Archive password',
        before: 'unchanged',
        after: 'a new password is set',
      },
      { key: 'reply_to', label: 'Reply-to address', before: 'not set', after: 'not set' },
    ]);
    expect(JSON.stringify(lines)).not.toContain('s3cret');
    expect(
      describeChanges(initial, { message_rejections: 2, subscriptions: 'open+confirm' }),
    ).toEqual([
      {
        key: 'message_rejections',
        label: 'Messages that are not permitted',
        before: 'Use the account default',
        after: 'Reject them',
      },
      {
        key: 'subscriptions',
        label: 'Subscriptions',
        before: 'Use the account setting',
        after: 'Open, with approval by a list administrator',
      },
    ]);
  });

  it('finds the field a server error names', () => {
    const refused = (message: string) =>
      serverFieldError(new ApiError(400, message), LIST_SERVER_FIELDS);
    expect(refused('name: has at most 64 characters')).toEqual({
      field: 'name',
      message: 'has at most 64 characters',
    });
    expect(refused('taboo_body.1: is not a valid regular expression')?.field).toBe('taboo_body');
    // SECURITY.md 31: the server refuses a pattern its linear-time engine cannot run, on the field.
    expect(
      refused('taboo_headers.0: uses lookahead or lookbehind, which the server does not run'),
    ).toEqual({
      field: 'taboo_headers',
      message: 'uses lookahead or lookbehind, which the server does not run',
    });
    expect(refused('unknown_thing: bad')).toBeNull();
    expect(refused('A list with that name already exists')).toBeNull();
  });

  it('fills $SUBJECT and $LISTNAME and inserts tokens at the cursor', () => {
    expect(fillVariables('Re: $SUBJECT on $LISTNAME', { subject: 'Hi', listAddress: 'n@x' })).toBe(
      'Re: Hi on n@x',
    );
    expect(insertAt('Hello world', '$LISTNAME', 6, 11)).toEqual({
      text: 'Hello $LISTNAME',
      caret: 15,
    });
    expect(insertAt('Hi ', '$SUBJECT', null, null)).toEqual({ text: 'Hi $SUBJECT', caret: 11 });
  });
});

describe('settings sections', () => {
  it('hold every writable setting except the name exactly once', async () => {
    const { SECTIONS } = await import('./sections.ts');
    const { LIST_SETTINGS } = await import('../../../../api/schemas/list.ts');
    const keys: string[] = SECTIONS.flatMap((section) => [...section.keys]);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...LIST_SETTINGS].sort());
  });
});

describe('choices', () => {
  it('offer every value the contract allows, and null where the spec allows it', async () => {
    const c = await import('../../../../api/constants.ts');
    const { CHOICES_BY_FIELD } = await import('./choices.ts');
    const values = (key: string) => CHOICES_BY_FIELD[key]?.map((choice) => choice.value);
    expect(values('message_rejections')).toEqual([null, ...c.MESSAGE_REJECTIONS_VALUES]);
    expect(values('notify_approval')).toEqual([null, ...c.LIST_NOTIFY_APPROVAL_VALUES]);
    expect(values('subscriptions')).toEqual([null, ...c.SUBSCRIPTION_MODES]);
    expect(values('unsubscriptions')).toEqual([null, ...c.SUBSCRIPTION_MODES]);
    expect(values('memberview')).toEqual([...c.MEMBERVIEW_VALUES]);
  });
});
