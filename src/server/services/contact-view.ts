import type { Kysely } from 'kysely';
import type { Contact } from '../../api/schemas/contact.ts';
import { listLimit, metadataLimit, type Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { toContact, type ContactParts, type ContactView } from '../repositories/contacts.mapper.ts';
import type { ContactWithChildren } from '../repositories/contacts.repository.ts';
import {
  findFieldsByAccount,
  type CustomFieldRow,
} from '../repositories/custom-fields.repository.ts';
import { contactRef } from './contact-ref.ts';
import { fieldKey, isFieldVisible } from './custom-field-keys.ts';

/** A contact's rows as the mapper takes them: custom values by field id. */
export function partsOf(loaded: ContactWithChildren): ContactParts {
  return {
    row: loaded.row,
    emails: loaded.emails,
    memberships: loaded.memberships,
    values: new Map(loaded.values.map((value) => [value.field_id, value.value])),
  };
}

/** What the caller may see of a contact: spec §2.6's limit_metadata and limit_lists. */
export function viewFor(
  account: AccountRow,
  principal: Principal,
  fields: readonly CustomFieldRow[],
): ContactView {
  return viewWithin(account, fields, metadataLimit(principal), listLimit(principal));
}

/** The view of spec §2.6's limits: null sees every field, or every list. */
export function viewWithin(
  account: AccountRow,
  fields: readonly CustomFieldRow[],
  limit: ReadonlySet<string> | null,
  lists: ReadonlySet<string> | null,
): ContactView {
  return {
    ref: (row) => contactRef(account, row),
    fields: fields
      .filter((field) => isFieldVisible(field, limit))
      .map((field) => ({ field, key: fieldKey(field) })),
    lists,
  };
}

/** Whether the caller sees every field and list: then a contact's stored document is its answer. */
export function seesEverything(principal: Principal): boolean {
  return metadataLimit(principal) === null && listLimit(principal) === null;
}

/** Loaded contacts as the caller sees them. */
export async function present(
  db: Kysely<Database>,
  account: AccountRow,
  principal: Principal,
  loaded: readonly ContactWithChildren[],
  knownFields?: CustomFieldRow[],
): Promise<Contact[]> {
  const fields = knownFields ?? (await findFieldsByAccount(db, account.id));
  const view = viewFor(account, principal, fields);
  return loaded.map((contact) => toContact(partsOf(contact), view));
}
