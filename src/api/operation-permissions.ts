// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (operation-permissions.ts).
import { PERMISSIONS } from './constants.ts';
import type { OperationName, RouteRule } from './operations.ts';

/**
 * The permissions of each operation (SECURITY.md 16, RouteRule), which the dashboard reads before
 * its first page to show each person only what they may do, and its 403s to say what is missing.
 */
export const OPERATION_PERMISSIONS: Record<OperationName, RouteRule> = {
  'contacts.get': { anyOf: ['contact', 'membership'] },
  'contacts.list': { anyOf: ['contact', 'membership'] },
  'contacts.create': { anyOf: ['contact'] },
  'contacts.update': { anyOf: ['contact'] },
  'contacts.delete': { anyOf: ['contact'] },
  'emails.get': { anyOf: ['contact', 'membership'] },
  'emails.create': { anyOf: ['contact'] },
  'emails.update': { anyOf: ['contact'] },
  'emails.delete': { anyOf: ['contact'] },
  'membership.get': { anyOf: ['contact', 'membership'] },
  'membership.create': { anyOf: ['membership', 'contact'] },
  'membership.update': { anyOf: ['membership', 'contact'] },
  'membership.delete': { anyOf: ['membership', 'contact'] },
  'lists.list': { anyOf: ['list', 'list_settings', 'membership', 'contact', 'messages', 'approval'] },
  'lists.get': { anyOf: ['list', 'list_settings', 'membership', 'contact', 'messages', 'approval'] },
  'lists.create': { anyOf: ['list'] },
  'lists.update': { anyOf: ['list', 'list_settings'] },
  'lists.delete': { anyOf: ['list'] },
  'messages.list': { anyOf: ['messages', 'approval'] },
  'messages.get': { anyOf: ['messages', 'approval'] },
  'messages.send': { anyOf: ['messages'] },
  'messages.delete': { anyOf: ['messages', 'approval'] },
  'messages.image': { anyOf: ['messages', 'approval'] },
  'users.list': { anyOf: ['superadmin'] },
  'users.get': { anyOf: ['superadmin'] },
  'users.create': { anyOf: ['superadmin'] },
  'users.update': { anyOf: ['superadmin'] },
  'users.retrieveKey': { anyOf: ['superadmin'] },
  'users.delete': { anyOf: ['superadmin'] },
  'accounts.list': { anyOf: ['account'], global: true },
  'accounts.get': { anyOf: ['account'], global: true, ownAccount: ['general_settings'] },
  'accounts.create': { anyOf: ['account'], global: true },
  'accounts.update': { anyOf: ['account'], global: true, ownAccount: ['general_settings'] },
  'accounts.delete': { anyOf: ['account'], global: true },
  'held.list': { anyOf: ['approval'] },
  'held.get': { anyOf: ['approval'] },
  'held.approve': { anyOf: ['approval'] },
  'held.reject': { anyOf: ['approval'] },
  'held.discard': { anyOf: ['approval'] },
  'held.bulk': { anyOf: ['approval'] },
  'requests.list': { anyOf: ['membership'] },
  'requests.approve': { anyOf: ['membership'] },
  'requests.reject': { anyOf: ['membership'] },
  'requests.discard': { anyOf: ['membership'] },
  'requests.bulk': { anyOf: ['membership'] },
  'audit.list': { anyOf: ['audit'] },
  'caller.get': { anyOf: PERMISSIONS },
};
