import { PERMISSIONS, type Permission } from './constants.ts';
import type { OperationName } from './operations.ts';

/**
 * SECURITY.md 16: every operation names the permissions that allow it (any one suffices;
 * superadmin allows everything within its scope). Deny by default: the server refuses to start if
 * an operation is missing here. `global` operations also need a global key (spec §4.7, §4.8). Part
 * of the contract: the reference server enforces it, the dashboard shows each person only what it
 * allows them (another server may differ; its 403 still explains).
 */
export interface RouteRule {
  anyOf: readonly Permission[];
  global?: boolean;
}

const contactReaders: Permission[] = ['contact', 'membership'];
const listReaders: Permission[] = [
  'list',
  'list_settings',
  'membership',
  'contact',
  'messages',
  'approval',
];

export const OPERATION_PERMISSIONS: Record<OperationName, RouteRule> = {
  'contacts.get': { anyOf: contactReaders },
  'contacts.list': { anyOf: contactReaders },
  'contacts.create': { anyOf: ['contact'] },
  'contacts.update': { anyOf: ['contact'] },
  'contacts.delete': { anyOf: ['contact'] },

  'emails.get': { anyOf: contactReaders },
  'emails.create': { anyOf: ['contact'] },
  'emails.update': { anyOf: ['contact'] },
  'emails.delete': { anyOf: ['contact'] },

  'membership.get': { anyOf: contactReaders },
  'membership.create': { anyOf: ['membership', 'contact'] },
  'membership.update': { anyOf: ['membership', 'contact'] },
  'membership.delete': { anyOf: ['membership', 'contact'] },

  'lists.list': { anyOf: listReaders },
  'lists.get': { anyOf: listReaders },
  'lists.create': { anyOf: ['list'] },
  'lists.update': { anyOf: ['list', 'list_settings'] },
  'lists.delete': { anyOf: ['list'] },

  'messages.list': { anyOf: ['messages', 'approval'] },
  'messages.get': { anyOf: ['messages', 'approval'] },
  'messages.send': { anyOf: ['messages'] },
  'messages.delete': { anyOf: ['messages', 'approval'] },
  // Extension: whoever may read a message may see its images.
  'messages.image': { anyOf: ['messages', 'approval'] },

  // Extension: the held queue is the moderator's, spec §2.6 `approval`.
  'held.list': { anyOf: ['approval'] },
  'held.get': { anyOf: ['approval'] },
  'held.approve': { anyOf: ['approval'] },
  'held.reject': { anyOf: ['approval'] },
  'held.discard': { anyOf: ['approval'] },
  'held.bulk': { anyOf: ['approval'] },

  'users.list': { anyOf: ['superadmin'] },
  'users.get': { anyOf: ['superadmin'] },
  'users.create': { anyOf: ['superadmin'] },
  'users.update': { anyOf: ['superadmin'] },
  'users.retrieveKey': { anyOf: ['superadmin'] },
  'users.delete': { anyOf: ['superadmin'] },

  'accounts.list': { anyOf: ['account'], global: true },
  'accounts.get': { anyOf: ['account'], global: true },
  'accounts.create': { anyOf: ['account'], global: true },
  'accounts.update': { anyOf: ['account'], global: true },
  'accounts.delete': { anyOf: ['account'], global: true },

  // Who is calling, about the caller alone: any permission at all reads it (a key with none can
  // do nothing to show).
  'caller.get': { anyOf: PERMISSIONS },
};
