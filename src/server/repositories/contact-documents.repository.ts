import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import { parseServiceId } from './contacts.repository.ts';

/** A contact's stored document: null when it is not rendered (migration 0500). */
interface DocumentRow {
  document: string | null;
}

/*
 * A document is served only while it was rendered with its account's document version (migration
 * 2026-11-26T0000), checked in the statement that reads it: a list renamed, a custom field changed
 * or ccid toggled since, and it is as absent as an unrendered one. A single contact's read compares
 * with a scalar subquery: joining document_versions cost SQLite 9 µs a read, the subquery 0.1 µs
 * (measured with better-sqlite3, against 2.2 µs for the read alone).
 */

const documentById = preparedQuery<{ accountId: number; id: number }, DocumentRow>((db, slot) =>
  db
    .selectFrom('contact_documents')
    .select('contact_documents.document')
    .where('contact_documents.account_id', '=', slot('accountId'))
    .where('contact_documents.contact_id', '=', slot('id'))
    .where('contact_documents.version', '=', accountVersion),
);

const documentByCcid = preparedQuery<{ accountId: number; ccid: string }, DocumentRow>((db, slot) =>
  db
    .selectFrom('contacts')
    .innerJoin('contact_documents', 'contact_documents.contact_id', 'contacts.id')
    .select('contact_documents.document')
    .where('contacts.account_id', '=', slot('accountId'))
    .where('contacts.ccid', '=', slot('ccid'))
    .where('contact_documents.version', '=', accountVersion),
);

/** The document version of a stored document's account. */
function accountVersion(eb: ExpressionBuilder<Database, 'contact_documents'>) {
  return eb
    .selectFrom('document_versions')
    .select('document_versions.version')
    .whereRef('document_versions.account_id', '=', 'contact_documents.account_id');
}

/** A stored document as a read may serve it: null when it predates its account's version. */
const currentDocument = sql<string | null>`case
  when contact_documents.version = document_versions.version then contact_documents.document end`;

/** A page row as a caller who sees everything gets it: the stored document, or null to render. */
export interface DocumentPageRow {
  id: number;
  document: string | null;
}

/** findContactsPage for a caller who sees everything: the stored documents, none of the children. */
export function findContactDocumentsPage(
  db: Kysely<Database>,
  accountId: number,
  limit: number,
  offset: number,
): Promise<DocumentPageRow[]> {
  return documentsOfAll(db, { accountId, limit, offset });
}

/** The stored documents of some contacts of the account (a page found by its ids), by id. */
export async function findContactDocumentsByIds(
  db: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
): Promise<DocumentPageRow[]> {
  if (ids.length === 0) return [];
  return selectDocuments(db)
    .where('contacts.account_id', '=', accountId)
    .where('contacts.id', 'in', ids)
    .orderBy('contacts.id')
    .execute();
}

/** Each contact's document, null when none is stored or it predates its account's version. */
function selectDocuments(db: Kysely<Database>) {
  return db
    .selectFrom('contacts')
    .leftJoin('contact_documents', 'contact_documents.contact_id', 'contacts.id')
    .leftJoin('document_versions', 'document_versions.account_id', 'contacts.account_id')
    .select(['contacts.id', currentDocument.as('document')]);
}

const documentsOfAll = preparedQuery<{ accountId: number; limit: number; offset: number }, DocumentPageRow>(
  (db, slot) =>
    selectDocuments(db)
      .where('contacts.account_id', '=', slot('accountId'))
      .orderBy('contacts.id')
      .limit(slot('limit'))
      .offset(slot('offset')),
);

/**
 * The stored document of the contact a request names (its ccid on a ccid-enabled account, spec
 * §2.1), or null: none stored, one rendered before its account's version, or no such contact (the
 * caller then reads the rows, which tell).
 */
export async function findContactDocument(
  db: Kysely<Database>,
  account: { id: number; ccid: number },
  ref: string,
): Promise<string | null> {
  if (account.ccid === 1) return (await documentByCcid(db, { accountId: account.id, ccid: ref }))[0]?.document ?? null;
  const id = parseServiceId(ref);
  return id === null ? null : ((await documentById(db, { accountId: account.id, id }))[0]?.document ?? null);
}

/** Stores a document rendered with the account's document `version`. */
export async function storeContactDocument(
  db: Kysely<Database>,
  contactId: number,
  document: string,
  version: number,
): Promise<void> {
  await db
    .updateTable('contact_documents')
    .set({ document, version })
    .where('contact_id', '=', contactId)
    .execute();
}

/**
 * The document version of each account of `contactIds`, read before what a document renders. On
 * PostgreSQL the rows stay share-locked until the transaction ends, so no change to a list name,
 * a custom field or ccid commits in between: a document is never labelled newer than what it shows.
 */
export async function lockDocumentVersionsOfContacts(
  db: Kysely<Database>,
  contactIds: readonly number[],
): Promise<Map<number, number>> {
  if (contactIds.length === 0) return new Map();
  const query = db
    .selectFrom('document_versions')
    .select(['account_id', 'version'])
    .where('account_id', 'in', (eb) =>
      eb.selectFrom('contacts').select('account_id').where('id', 'in', contactIds),
    )
    .orderBy('account_id');
  const rows = await (dialectOf(db) === 'postgres' ? query.forShare() : query).execute();
  return new Map(rows.map((row) => [row.account_id, row.version]));
}

/** lockDocumentVersionsOfContacts for one account; undefined when it is gone. */
export async function lockDocumentVersion(
  db: Kysely<Database>,
  accountId: number,
): Promise<number | undefined> {
  const query = db
    .selectFrom('document_versions')
    .select('version')
    .where('account_id', '=', accountId);
  return (await (dialectOf(db) === 'postgres' ? query.forShare() : query).executeTakeFirst())
    ?.version;
}

/** Contacts to render, each with its account. */
export type DocumentTarget = { id: number; account_id: number };

/**
 * Up to `limit` contacts without a document, oldest first. On PostgreSQL their document rows are
 * locked until the transaction ends, skipping rows another renderer or writer holds: a change to a
 * contact locks its document row (migration 0500), so what is rendered under the lock is current.
 */
export async function lockContactsWithoutDocument(
  db: Kysely<Database>,
  limit: number,
): Promise<DocumentTarget[]> {
  const query = db
    .selectFrom('contact_documents')
    .select(['contact_id as id', 'account_id'])
    .where('document', 'is', null)
    .orderBy('contact_id')
    .limit(limit);
  return dialectOf(db) === 'postgres' ? query.forUpdate().skipLocked().execute() : query.execute();
}

/** Up to `limit` accounts whose documents the renderer has not brought to their version. */
export function accountsBehind(
  db: Kysely<Database>,
  limit: number,
): Promise<{ account_id: number; version: number }[]> {
  return db
    .selectFrom('document_versions')
    .select(['account_id', 'version'])
    .whereRef('rendered', '<', 'version')
    .orderBy('account_id')
    .limit(limit)
    .execute();
}

/**
 * Up to `limit` documents of the account rendered before `version` (locked as
 * lockContactsWithoutDocument's are).
 */
export async function lockDocumentsBehind(
  db: Kysely<Database>,
  accountId: number,
  version: number,
  limit: number,
): Promise<DocumentTarget[]> {
  const query = documentsBehind(db, accountId, version)
    .select(['contact_id as id', 'account_id'])
    .limit(limit);
  return dialectOf(db) === 'postgres' ? query.forUpdate().skipLocked().execute() : query.execute();
}

function documentsBehind(db: Kysely<Database>, accountId: number, version: number) {
  return db
    .selectFrom('contact_documents')
    .where('account_id', '=', accountId)
    .where('version', '<', version);
}

/**
 * Records that none of the account's documents is behind `version`, if none is: rows another
 * transaction held were skipped by lockDocumentsBehind, and one that rolls back leaves them behind.
 */
export async function markDocumentsRendered(
  db: Kysely<Database>,
  accountId: number,
  version: number,
): Promise<void> {
  const behind = await documentsBehind(db, accountId, version)
    .select('contact_id')
    .limit(1)
    .executeTakeFirst();
  if (behind) return;
  await db
    .updateTable('document_versions')
    .set({ rendered: version })
    .where('account_id', '=', accountId)
    .where('rendered', '<', version)
    .execute();
}
