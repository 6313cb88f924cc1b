import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import { toContact } from '../repositories/contacts.mapper.ts';
import {
  findContactsWithChildrenByIds,
  type ContactWithChildren,
} from '../repositories/contacts.repository.ts';
import { findFieldsByAccount } from '../repositories/custom-fields.repository.ts';
import { partsOf, viewWithin } from './contact-view.ts';

/*
 * Rendering the stored contact documents of migration 0500 (their mechanism:
 * contact-document-store.ts): each contact's answer to a caller who sees everything, as JSON.
 */

/** The documents of some loaded contacts of one account, by service id. */
export async function renderLoaded(
  db: Kysely<Database>,
  account: AccountRow,
  loaded: readonly ContactWithChildren[],
): Promise<Map<number, string>> {
  const rendered = new Map<number, string>();
  if (loaded.length === 0) return rendered;
  const view = viewWithin(account, await findFieldsByAccount(db, account.id), null, null);
  for (const contact of loaded) {
    rendered.set(contact.row.id, JSON.stringify(toContact(partsOf(contact), view)));
  }
  return rendered;
}

/**
 * The documents of some contacts of one account, rendered from their rows: each contact's answer
 * to a caller who sees everything, as JSON, by service id. A contact that no longer exists is left
 * out.
 */
export async function renderContactDocuments(
  db: Kysely<Database>,
  account: AccountRow,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  return renderLoaded(db, account, await findContactsWithChildrenByIds(db, ids));
}
