import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { JsonText } from '../http/json-text.ts';
import type { AccountRow } from '../repositories/accounts.repository.ts';
import {
  findContactDocument,
  type DocumentPageRow,
} from '../repositories/contact-documents.repository.ts';
import { renderContactDocuments } from './contact-document-render.ts';

/*
 * Reading the stored contact documents (their mechanism: contact-document-store.ts): the answers
 * of a caller who sees everything, as stored.
 */

/**
 * The stored document of the contact a request names, as the answer of a caller who sees
 * everything; null when none is stored or no such contact exists (the caller then reads the rows).
 */
export async function storedContactDocument(
  db: Kysely<Database>,
  account: AccountRow,
  ref: string,
): Promise<JsonText | null> {
  const document = await findContactDocument(db, account, ref);
  return document === null ? null : new JsonText(document);
}

/**
 * A page for a caller who sees everything, from the stored documents; the few not rendered yet
 * are rendered from their rows. A contact deleted between the two reads is left out, as it would
 * be a moment later.
 */
export async function documentsPage(
  db: Kysely<Database>,
  account: AccountRow,
  rows: readonly DocumentPageRow[],
  count: number,
  page: number,
): Promise<JsonText> {
  const missing = rows.filter((row) => row.document === null).map((row) => row.id);
  const rendered = await renderContactDocuments(db, account, missing);
  const documents: string[] = [];
  for (const row of rows) {
    const document = row.document ?? rendered.get(row.id);
    if (document !== undefined) documents.push(document);
  }
  return new JsonText(
    `{"count":${count},"page":${page},"data":[${documents.join(',')}]}`,
    documents.length,
  );
}
