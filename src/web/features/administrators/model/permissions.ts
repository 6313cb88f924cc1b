import type { Notification, Permission } from '../../../../api/constants.ts';

/** Spec §2.6 `permissions` table, one line each, grouped as an administrator thinks of them. */
export const PERMISSION_GROUPS: {
  legend: string;
  items: { value: Permission; meaning: string }[];
}[] = [
  {
    legend: 'Administration',
    items: [
      { value: 'superadmin', meaning: 'Add and edit other administrators' },
      { value: 'account', meaning: 'Multi-account administrator (grouped accounts only)' },
      { value: 'general_settings', meaning: 'Manage general account settings' },
      { value: 'billing', meaning: 'Manage account billing' },
      { value: 'audit', meaning: 'View audit logs' },
    ],
  },
  {
    legend: 'Lists and messages',
    items: [
      { value: 'list', meaning: 'Manage lists (create, delete, copy)' },
      { value: 'list_settings', meaning: 'Manage list settings' },
      { value: 'approval', meaning: 'Moderate emails held for approval' },
      { value: 'messages', meaning: 'View and send list messages (overriding moderation)' },
    ],
  },
  {
    legend: 'Contacts',
    items: [
      { value: 'contact', meaning: 'Manage all contacts, including membership' },
      { value: 'membership', meaning: 'Manage list members' },
      { value: 'alias', meaning: 'Manage aliases' },
    ],
  },
  {
    legend: 'Limits',
    items: [
      { value: 'limit_lists', meaning: 'Limited to specific lists only' },
      { value: 'limit_metadata', meaning: 'Limited to specific custom metadata only' },
    ],
  },
];

/** Spec §2.6 `notifications` table. */
export const NOTIFICATION_MEANINGS: { value: Notification; meaning: string }[] = [
  { value: 'list_manager', meaning: 'Emails sent to list manager addresses' },
  { value: 'account', meaning: 'Account-management emails' },
  { value: 'subscription', meaning: 'Subscription and unsubscription notifications' },
  {
    value: 'bounce_removal',
    meaning: 'Notices and warnings of member removal due to undeliverable email',
  },
  { value: 'bounce', meaning: 'Notices of undeliverable email' },
  { value: 'approval', meaning: 'Notices of emails requiring approval' },
];

/**
 * Starting points for the permission checkboxes, each named by what it allows (the user may adjust
 * them afterwards). Spec §2.6 has no read-only permission: `audit` alone opens no contact, list or
 * message (issue 27 item 4), so no preset promises reading only; the form shows what the chosen
 * permissions open (model/permission-reach.ts).
 */
export const PERMISSION_PRESETS: { name: string; permissions: Permission[] }[] = [
  { name: 'Moderate held messages', permissions: ['approval'] },
  { name: 'Moderate and send to lists', permissions: ['approval', 'messages'] },
  { name: 'Manage list members', permissions: ['membership'] },
  {
    name: 'Manage lists, members and moderation',
    permissions: ['list', 'list_settings', 'membership', 'approval', 'messages'],
  },
  {
    name: 'Everything (superadmin)',
    permissions: [
      'superadmin',
      'list',
      'general_settings',
      'list_settings',
      'approval',
      'messages',
      'contact',
      'alias',
      'membership',
      'audit',
      'billing',
    ],
  },
];

/** The preset whose permissions are exactly these, if any (order does not matter). */
export function presetOf(permissions: readonly string[]): string | null {
  const chosen = new Set(permissions);
  const preset = PERMISSION_PRESETS.find(
    (candidate) =>
      candidate.permissions.length === chosen.size &&
      candidate.permissions.every((permission) => chosen.has(permission)),
  );
  return preset?.name ?? null;
}

/** A short summary for the table: a preset's name with the permissions, or the permissions. */
export function summarizePermissions(permissions: readonly string[]): string {
  if (permissions.length === 0) return 'No permissions';
  const preset = presetOf(permissions);
  return preset ? `${preset}: ${permissions.join(', ')}` : permissions.join(', ');
}
