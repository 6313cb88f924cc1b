import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { JsonText } from '../http/json-text.ts';
import { findAccountById, type AccountRow } from '../repositories/accounts.repository.ts';
import { collectChangedContacts } from '../repositories/changed-contacts.ts';
import {
  findContactDocument,
  lockContactsWithoutDocument,
  storeContactDocument,
} from '../repositories/contact-documents.repository.ts';
import { toContact } from '../repositories/contacts.mapper.ts';
import {
  findContactsWithChildrenByIds,
  type ContactWithChildren,
  type DocumentPageRow,
} from '../repositories/contacts.repository.ts';
import { findFieldsByAccount } from '../repositories/custom-fields.repository.ts';
import { partsOf, viewWithin } from './contact-view.ts';

/*
 * The stored contact documents of migration 0500, all of their mechanism: each contact's answer to
 * a caller who sees everything, kept as JSON beside its rows. The triggers null a document when its
 * rows change; a write transaction stores the documents of the contacts it changed before it
 * commits (writeTransaction); the background renderer brings back the rest (a list renamed, a
 * custom field added, the demo's bulk load). Services never store a document themselves.
 */

// --- rendering -----------------------------------------------------------------------------------

/** The documents of some loaded contacts of one account, by service id. */
async function renderLoaded(
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

// --- the unit of work ----------------------------------------------------------------------------

/**
 * Runs a write in a transaction and, before it commits, stores the documents of the contacts it
 * changed (the repositories note them: repositories/changed-contacts.ts), so that the next read is
 * served from the document. A write that changes no contact pays nothing for it.
 */
export function writeTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const changed = collectChangedContacts(trx);
    const result = await work(trx);
    await storeDocumentsOf(trx, changed);
    return result;
  });
}

async function storeDocumentsOf(
  trx: Kysely<Database>,
  contactIds: ReadonlySet<number>,
): Promise<void> {
  if (contactIds.size === 0) return;
  // A deleted contact is not found, and has no document to store.
  const loaded = await findContactsWithChildrenByIds(trx, [...contactIds]);
  for (const [accountId, ofAccount] of Map.groupBy(loaded, (contact) => contact.row.account_id)) {
    // The account as this transaction reads it: the request's may come from the auth cache and
    // predate a ccid change, and the ccid setting names the contact in `contact`.
    const account = await findAccountById(trx, accountId);
    if (!account) continue;
    for (const [id, document] of await renderLoaded(trx, account, ofAccount)) {
      await storeContactDocument(trx, id, document);
    }
  }
}

// --- reading -------------------------------------------------------------------------------------

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

// --- the background renderer ---------------------------------------------------------------------

/** Contacts rendered per transaction: a few milliseconds of the one SQLite connection at a time. */
export const DOCUMENT_BATCH = 200;

/**
 * Renders the documents of up to `limit` contacts that have none (migration 0500), within the
 * caller's transaction; answers how many it rendered. Writes that change what a document shows
 * null it (a list renamed, a custom field added, the demo's bulk load), and this brings it back.
 */
export async function renderMissingDocumentsWithin(
  trx: Kysely<Database>,
  limit: number,
): Promise<number> {
  const rows = await lockContactsWithoutDocument(trx, limit);
  for (const [accountId, ofAccount] of Map.groupBy(rows, (row) => row.account_id)) {
    const account = await findAccountById(trx, accountId);
    if (!account) continue;
    const rendered = await renderContactDocuments(
      trx,
      account,
      ofAccount.map((row) => row.id),
    );
    for (const [id, document] of rendered) await storeContactDocument(trx, id, document);
  }
  return rows.length;
}

/** Renders every missing document, batch by batch, within the caller's transaction (the demo). */
export async function renderAllMissingDocumentsWithin(trx: Kysely<Database>): Promise<number> {
  let total = 0;
  for (;;) {
    const rendered = await renderMissingDocumentsWithin(trx, DOCUMENT_BATCH * 5);
    total += rendered;
    if (rendered < DOCUMENT_BATCH * 5) return total;
  }
}

export interface DocumentRenderer {
  /** Waits for the pass under way, and starts no other. */
  stop(): Promise<void>;
}

/**
 * The server's background renderer: every `intervalMs`, it renders missing documents one batch per
 * transaction until none is left. A failed pass (another process's write in SQLite's way, a
 * deadlock broken by PostgreSQL) changes nothing and is tried again at the next tick.
 */
export function startDocumentRenderer(
  db: Kysely<Database>,
  options: { intervalMs: number; onError: (error: unknown) => void },
): DocumentRenderer {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      while (!stopped) {
        const rendered = await db
          .transaction()
          .execute((trx) => renderMissingDocumentsWithin(trx, DOCUMENT_BATCH));
        if (rendered < DOCUMENT_BATCH) break;
        // Between batches, let waiting requests have the connection.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      options.onError(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().then(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
