import type { ApiClient } from '../../../../api/client.ts';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { contactRef } from '../../../lib/contact-queries.ts';
import { toCsv } from '../../../lib/csv.ts';
import { fullName } from './format.ts';

export type BulkAction =
  | { kind: 'add-to-list'; list: string }
  | { kind: 'remove-from-list'; list: string }
  | { kind: 'remove-from-all-lists' }
  | { kind: 'delete' };

export const BULK_ACTION_LABELS: Record<BulkAction['kind'], string> = {
  'add-to-list': 'Add to a list',
  'remove-from-list': 'Remove from a list',
  'remove-from-all-lists': 'Remove from all lists',
  delete: 'Delete',
};

export interface BulkPlan {
  /** The contacts the action changes. */
  contacts: Contact[];
  /** Contacts it would leave as they are (already a member, on no list…). */
  skipped: number;
}

/** The dry run: which contacts an action changes, and which it leaves as they are. */
export function planBulk(action: BulkAction, contacts: readonly Contact[]): BulkPlan {
  const changes = (contact: Contact) => {
    switch (action.kind) {
      case 'add-to-list':
        return !contact.lists.some((m) => m.list === action.list);
      case 'remove-from-list':
        return contact.lists.some((m) => m.list === action.list);
      case 'remove-from-all-lists':
        return contact.lists.length > 0;
      case 'delete':
        return true;
    }
  };
  const affected = contacts.filter(changes);
  return { contacts: affected, skipped: contacts.length - affected.length };
}

/** What the dry run says will happen, in words. */
export function describePlan(action: BulkAction, plan: BulkPlan): string {
  const n = plan.contacts.length;
  const them = n === 1 ? '1 contact' : `${n} contacts`;
  const left = plan.skipped === 0 ? '' : ` ${plan.skipped} already as asked, left alone.`;
  switch (action.kind) {
    case 'add-to-list':
      return `${them} will be added to ${action.list}.${left}`;
    case 'remove-from-list':
      return `${them} will be removed from ${action.list}.${left}`;
    case 'remove-from-all-lists':
      return `${them} will be removed from every list.${left}`;
    case 'delete':
      return `${them} will be deleted, with their addresses and memberships. This cannot be undone.`;
  }
}

/** Does the action to one contact: one API call, or one per membership. */
export async function applyBulk(api: ApiClient, action: BulkAction, contact: Contact) {
  const ref = contactRef(contact);
  switch (action.kind) {
    case 'add-to-list':
      await api.membership.create({ contact: ref, list: action.list });
      return;
    case 'remove-from-list':
      for (const membership of contact.lists.filter((m) => m.list === action.list)) {
        await api.membership.delete(membership.id);
      }
      return;
    case 'remove-from-all-lists':
      for (const membership of contact.lists) await api.membership.delete(membership.id);
      return;
    case 'delete':
      await api.contacts.delete(ref);
      return;
  }
}

/** The contacts a job could not change, and why, as CSV. */
export function failedContactsCsv(failures: readonly { item: Contact; message: string }[]): string {
  return toCsv([
    ['id', 'name', 'emails', 'error'],
    ...failures.map(({ item, message }) => [
      String(item.id),
      fullName(item),
      item.emails.map((e) => e.email).join(';'),
      message,
    ]),
  ]);
}
