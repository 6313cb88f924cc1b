import type { Contact } from '../../api/schemas/contact.ts';
import type { ContactEmailRow, ContactMembershipRow, ContactRow } from './contacts.repository.ts';
import type { CustomFieldRow } from './custom-fields.repository.ts';
import { toEmail } from './emails.mapper.ts';
import { toMembership } from './memberships.mapper.ts';

/** A contact row with its child rows, as loaded for one answer. */
export interface ContactParts {
  row: ContactRow;
  emails: ContactEmailRow[];
  memberships: ContactMembershipRow[];
  /** field id → value. */
  values: ReadonlyMap<number, string>;
}

/** What the caller may see (spec §2.6 limit_lists, limit_metadata) and how contacts are named. */
export interface ContactView {
  /** How API calls name the contact (spec §2.1: its ccid on a ccid-enabled account). */
  ref: (row: ContactRow) => number | string;
  /** The custom fields the caller sees, each under its identifier or else its name. */
  fields: readonly { field: CustomFieldRow; key: string }[];
  /** The list names the caller sees; null for every list. */
  lists: ReadonlySet<string> | null;
}

/** Row and children → spec §2.1 contact, custom fields at the top level ("" when unset). */
export function toContact(parts: ContactParts, view: ContactView): Contact {
  const { row } = parts;
  const ref = view.ref(row);
  const contact: Contact = {
    id: row.id,
    ccid: row.ccid,
    firstname: row.firstname,
    surname: row.surname,
    created: row.created,
    notes: row.notes,
    emails: parts.emails.map((email) => toEmail(email, ref)),
    lists: parts.memberships
      .filter((membership) => view.lists === null || view.lists.has(membership.list_name))
      .map((membership) => toMembership(membership, ref)),
  };
  // Added to the one object rather than spread into a new one (the hot path's profile showed the
  // copies). A field key is account data: `__proto__` must become an own key, never the prototype.
  for (const { field, key } of view.fields) {
    const value = parts.values.get(field.id) ?? '';
    if (key === '__proto__') Object.defineProperty(contact, key, { value, enumerable: true, writable: true, configurable: true });
    else contact[key] = value;
  }
  return contact;
}
