import type { Account, AccountDetail } from '../schemas/account.ts';
import type { Administrator } from '../schemas/administrator.ts';
import type { Contact } from '../schemas/contact.ts';
import type { Email } from '../schemas/email.ts';
import type { List } from '../schemas/list.ts';
import type { Membership } from '../schemas/membership.ts';
import type { Message } from '../schemas/message.ts';

/**
 * One valid object per resource, as a server answers it (spec §2). Typed against the contract, so
 * a field added to a read schema shows up here as a type error; client.test.ts also parses them.
 */

export function emailFixture(overrides: Partial<Email> = {}): Email {
  return {
    id: 11,
    contact: 1,
    email: 'ann@example.org',
    digest: false,
    paused: false,
    confirmed: true,
    ceid: null,
    ...overrides,
  };
}

export function membershipFixture(overrides: Partial<Membership> = {}): Membership {
  return { id: 21, contact: 1, list: 'news', digest: null, ...overrides };
}

export function contactFixture(overrides: Partial<Contact> = {}): Contact {
  return {
    id: 1,
    ccid: null,
    firstname: 'Ann',
    surname: 'Lee',
    created: '2024-05-01 09:30:00',
    notes: '',
    emails: [emailFixture()],
    lists: [membershipFixture()],
    ...overrides,
  };
}

export function listFixture(overrides: Partial<List> = {}): List {
  return {
    id: 3,
    name: 'news',
    created: '2024-05-01 09:00:00',
    contacts: [1],
    description: 'Monthly news',
    notes: '',
    maxlength: 2048,
    truncate: null,
    subject_prefix: '[news]',
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
    unsubscriptions: 'open',
    hold_automated: true,
    hold_replies: false,
    restrict_post_allowed_emails: [],
    restrict_post_banned_emails: [],
    restrict_post_lists: [],
    moderate: 0,
    message_rejections: null,
    notify_approval: 1,
    welcome_message: '',
    welcome_message_subject: '',
    confirmation_subject: '',
    confirmation_message: '',
    hold_message: 'Your message "$SUBJECT" to $LISTNAME is held.',
    hold_subject: 'Held: $LISTNAME',
    send_hold_message: true,
    reject_message: '',
    reject_subject: '',
    send_reject_message: false,
    archive_enabled: true,
    archive_spammode: true,
    archive_protected: false,
    archive_memberview: false,
    archive_index_noshow: false,
    ...overrides,
  };
}

export function messageFixture(overrides: Partial<Message> = {}): Message {
  return {
    id: 31,
    subject: 'Hello',
    from_phrase: 'Ann Lee',
    from_address: 'ann@example.org',
    list: 'news',
    time: 1714550000,
    message_id: '<31@example.org>',
    thread_id: 31,
    content_plain: 'Hello',
    content_html: '<p>Hello</p>',
    parent: null,
    ...overrides,
  };
}

export function administratorFixture(overrides: Partial<Administrator> = {}): Administrator {
  return {
    id: 41,
    username: 'admin@example.org',
    firstname: 'Ada',
    surname: 'Min',
    cidr: null,
    custom_image: false,
    mfa_type: null,
    api: 0,
    notifications: ['approval'],
    permissions: ['superadmin'],
    limit_metadata: [],
    limit_lists: [],
    ...overrides,
  };
}

export function accountFixture(overrides: Partial<Account> = {}): Account {
  return {
    id: 5,
    name: 'acme',
    description: 'ACME Corp',
    lists: ['news'],
    users: [{ id: 41, username: 'admin@example.org' }],
    ...overrides,
  };
}

export function accountDetailFixture(overrides: Partial<AccountDetail> = {}): AccountDetail {
  return {
    ...accountFixture(),
    confirmation_message: '',
    confirmation_subject: '',
    welcome_message: '',
    send_welcome_message_confirmation: false,
    send_welcome_message_contacts: false,
    timezone: 'Europe/Paris',
    custom_image: '',
    notify_approval: 1,
    subscriptions: 'open+confirm',
    unsubscriptions: 'open',
    list_delegation: false,
    restrict_contact: [],
    restrict_contact_subscription: [],
    require_list_approval: false,
    ...overrides,
  };
}
