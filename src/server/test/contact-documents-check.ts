import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findAccountById } from '../repositories/accounts.repository.ts';
import { renderContactDocuments } from '../services/contact-document-render.ts';

/**
 * The rule of migration 0500, checked on a whole database: every document a read would serve
 * equals what its contact's rows render now. Answers one line per contact that breaks it.
 */
export async function staleContactDocuments(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  // Every contact has its document row, in its own account.
  const orphans = await db
    .selectFrom('contacts')
    .leftJoin('contact_documents', 'contact_documents.contact_id', 'contacts.id')
    .select(['contacts.id', 'contacts.account_id', 'contact_documents.account_id as document_account'])
    .where((eb) =>
      eb.or([
        eb('contact_documents.contact_id', 'is', null),
        eb('contact_documents.account_id', '!=', eb.ref('contacts.account_id')),
      ]),
    )
    .execute();
  for (const row of orphans) problems.push(`contact ${row.id}: no document row in account ${row.account_id}`);
  // Every account has its document version (a trigger adds it with the account).
  const unversioned = await db
    .selectFrom('accounts')
    .leftJoin('document_versions', 'document_versions.account_id', 'accounts.id')
    .select('accounts.id')
    .where('document_versions.account_id', 'is', null)
    .execute();
  for (const row of unversioned) problems.push(`account ${row.id}: no document version`);
  // No document claims a version its account has not reached.
  const ahead = await db
    .selectFrom('contact_documents')
    .innerJoin('document_versions', 'document_versions.account_id', 'contact_documents.account_id')
    .select(['contact_documents.contact_id as id', 'contact_documents.version', 'document_versions.version as current'])
    .whereRef('contact_documents.version', '>', 'document_versions.version')
    .execute();
  for (const row of ahead) problems.push(`contact ${row.id}: version ${row.version} ahead of its account's ${row.current}`);
  // The documents a read would serve: stored, and rendered with their account's version
  // (migration 2026-11-26T0000). One behind it is never served, and may differ.
  const stored = await db
    .selectFrom('contact_documents')
    .innerJoin('document_versions', 'document_versions.account_id', 'contact_documents.account_id')
    .select(['contact_documents.contact_id as id', 'contact_documents.account_id', 'contact_documents.document'])
    .where('contact_documents.document', 'is not', null)
    .whereRef('contact_documents.version', '=', 'document_versions.version')
    .orderBy('contact_documents.contact_id')
    .execute();
  for (const [accountId, rows] of Map.groupBy(stored, (row) => row.account_id)) {
    const account = await findAccountById(db, accountId);
    if (!account) throw new Error(`account ${accountId} of contact ${rows[0]?.id} is missing`);
    // In slices: one statement cannot name every contact of a large account (SQLite's variables).
    for (let start = 0; start < rows.length; start += 5_000) {
      const slice = rows.slice(start, start + 5_000);
      const rendered = await renderContactDocuments(db, account, slice.map((row) => row.id));
      for (const { id, document } of slice) {
        if (document !== rendered.get(id)) problems.push(`contact ${id}: stored ${document} but renders ${rendered.get(id)}`);
      }
    }
  }
  return problems;
}
