import type { Kysely } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import { parseServiceId } from './contacts.repository.ts';

/** A contact's stored document: null when it is not rendered (migration 0500). */
interface DocumentRow {
  document: string | null;
}

const documentById = preparedQuery<{ accountId: number; id: number }, DocumentRow>((db, slot) =>
  db
    .selectFrom('contact_documents')
    .select('document')
    .where('account_id', '=', slot('accountId'))
    .where('contact_id', '=', slot('id')),
);

const documentByCcid = preparedQuery<{ accountId: number; ccid: string }, DocumentRow>((db, slot) =>
  db
    .selectFrom('contacts')
    .innerJoin('contact_documents', 'contact_documents.contact_id', 'contacts.id')
    .select('contact_documents.document')
    .where('contacts.account_id', '=', slot('accountId'))
    .where('contacts.ccid', '=', slot('ccid')),
);

/**
 * The stored document of the contact a request names (its ccid on a ccid-enabled account, spec
 * §2.1), or null: none stored, or no such contact (the caller then reads the rows, which tell).
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

/** Stores a rendered document. */
export async function storeContactDocument(db: Kysely<Database>, contactId: number, document: string): Promise<void> {
  await db.updateTable('contact_documents').set({ document }).where('contact_id', '=', contactId).execute();
}

/**
 * Up to `limit` contacts without a document, oldest first. On PostgreSQL their document rows are
 * locked until the transaction ends, skipping rows another renderer or writer holds: a change to a
 * contact locks its document row (migration 0500), so what is rendered under the lock is current.
 */
export async function lockContactsWithoutDocument(
  db: Kysely<Database>,
  limit: number,
): Promise<{ id: number; account_id: number }[]> {
  const query = db
    .selectFrom('contact_documents')
    .select(['contact_id as id', 'account_id'])
    .where('document', 'is', null)
    .orderBy('contact_id')
    .limit(limit);
  return dialectOf(db) === 'postgres' ? query.forUpdate().skipLocked().execute() : query.execute();
}
