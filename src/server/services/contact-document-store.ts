import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findAccountById } from '../repositories/accounts.repository.ts';
import {
  lockDocumentVersionsOfContacts,
  storeContactDocument,
} from '../repositories/contact-documents.repository.ts';
import { findContactsWithChildrenByIds } from '../repositories/contacts.repository.ts';
import { renderLoaded } from './contact-document-render.ts';

/*
 * The stored contact documents of migration 0500, their mechanism: each contact's answer to a
 * caller who sees everything, kept as JSON beside its rows (rendered by contact-document-render.ts).
 * The triggers null a document when its contact's rows change, and raise the account's document
 * version when a list name, a custom field or the ccid setting changes (migration
 * 2026-11-26T0000: one row, however many contacts it shows in); a read serves a document only
 * while its version is the account's (contact-document-read.ts). A write's unit of work
 * (db/unit-of-work.ts) stores the documents of the contacts it changed before it commits (below);
 * the background renderer brings back the rest (background-document-renderer.ts: those behind
 * their account's version, the demo's bulk load). Services never store a document themselves.
 */

/**
 * Stores, within a write's transaction and before it commits, the documents of the contacts it
 * changed, so that the next read is served from the document. A write that changed no contact
 * pays nothing for it.
 */
export async function storeChangedContactDocuments(
  trx: Kysely<Database>,
  contactIds: ReadonlySet<number>,
): Promise<void> {
  if (contactIds.size === 0) return;
  const ids = [...contactIds];
  // The versions before the rows they label (lockDocumentVersionsOfContacts).
  const versions = await lockDocumentVersionsOfContacts(trx, ids);
  // A deleted contact is not found, and has no document to store.
  const loaded = await findContactsWithChildrenByIds(trx, ids);
  for (const [accountId, ofAccount] of Map.groupBy(loaded, (contact) => contact.row.account_id)) {
    // The account as this transaction reads it: the request's may come from the auth cache and
    // predate a ccid change, and the ccid setting names the contact in `contact`.
    const account = await findAccountById(trx, accountId);
    const version = versions.get(accountId);
    if (!account || version === undefined) continue;
    for (const [id, document] of await renderLoaded(trx, account, ofAccount)) {
      await storeContactDocument(trx, id, document, version);
    }
  }
}
