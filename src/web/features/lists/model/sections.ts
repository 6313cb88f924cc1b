import type { SettingKey } from './list-form.ts';

/** The settings page's sections, their anchors, and the fields each one holds (copyable ones). */
export const SECTIONS = [
  {
    id: 'general',
    title: 'General',
    keys: ['description', 'notes', 'subject_prefix', 'reply_to', 'maxlength', 'truncate'],
  },
  {
    id: 'posting',
    title: 'Posting and moderation',
    keys: [
      'moderate',
      'message_rejections',
      'notify_approval',
      'restrict_post_lists',
      'restrict_post_allowed_emails',
      'restrict_post_banned_emails',
      'moderator',
      'hold_automated',
      'hold_replies',
    ],
  },
  { id: 'taboo', title: 'Taboo rules', keys: ['taboo_headers', 'taboo_body'] },
  {
    id: 'content',
    title: 'Content',
    keys: [
      'message_fronter',
      'message_fronter_html',
      'message_footer',
      'message_footer_html',
      'strip_attachments',
    ],
  },
  {
    id: 'held',
    title: 'Held and rejected messages',
    keys: [
      'hold_subject',
      'hold_message',
      'send_hold_message',
      'reject_subject',
      'reject_message',
      'send_reject_message',
    ],
  },
  {
    id: 'subscriptions',
    title: 'Subscriptions and welcome',
    keys: [
      'subscriptions',
      'unsubscriptions',
      'welcome_message_subject',
      'welcome_message',
      'confirmation_subject',
      'confirmation_message',
    ],
  },
  {
    id: 'archives',
    title: 'Archives',
    keys: [
      'archive_enabled',
      'archive_spammode',
      'archive_protected',
      'archive_memberview',
      'archive_index_noshow',
    ],
  },
  { id: 'members', title: 'Members', keys: ['memberview'] },
] as const satisfies readonly { id: string; title: string; keys: readonly SettingKey[] }[];

export type SectionId = (typeof SECTIONS)[number]['id'];
