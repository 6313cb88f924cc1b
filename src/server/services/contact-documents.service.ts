import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { JsonText } from '../http/json-text.ts';
import { findAccountById, type AccountRow } from '../repositories/accounts.repository.ts';
import { collectChangedContacts } from '../repositories/changed-contacts.ts';
import {
  accountsBehind,
  findContactDocument,
  lockContactsWithoutDocument,
  lockDocumentsBehind,
  lockDocumentVersion,
  lockDocumentVersionsOfContacts,
  markDocumentsRendered,
  storeContactDocument,
  type DocumentPageRow,
  type DocumentTarget,
} from '../repositories/contact-documents.repository.ts';
import { toContact } from '../repositories/contacts.mapper.ts';
import {
  findContactsWithChildrenByIds,
  type ContactWithChildren,
} from '../repositories/contacts.repository.ts';
import { findFieldsByAccount } from '../repositories/custom-fields.repository.ts';
import { partsOf, viewWithin } from './contact-view.ts';

/*
 * The stored contact documents of migration 0500, all of their mechanism: each contact's answer to
 * a caller who sees everything, kept as JSON beside its rows. The triggers null a document when its
 * contact's rows change, and raise the account's document version when a list name, a custom field
 * or the ccid setting changes (migration 2026-11-26T0000: one row, however many contacts it shows
 * in); a read serves a document only while its version is the account's. A write transaction
 * stores the documents of the contacts it changed before it commits (writeTransaction); the
 * background renderer brings back the rest (those behind their account's version, the demo's bulk
 * load). Services never store a document themselves.
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

/** Accounts whose documents behind their version one batch looks at. */
const ACCOUNTS_A_BATCH = 10;

/**
 * Renders up to `limit` documents within the caller's transaction: first those of contacts that
 * have none (a change to the contact made behind the unit of work, the demo's bulk load), then
 * those rendered before their account's version (a list renamed, a custom field added, ccid
 * toggled). Answers how much it did: the documents rendered, and each account it found done.
 */
export async function renderMissingDocumentsWithin(
  trx: Kysely<Database>,
  limit: number,
): Promise<number> {
  const missing = await lockContactsWithoutDocument(trx, limit);
  await renderTargets(trx, missing);
  let done = missing.length;
  for (const { account_id: accountId, version } of await accountsBehind(trx, ACCOUNTS_A_BATCH)) {
    if (done >= limit) break;
    const behind = await lockDocumentsBehind(trx, accountId, version, limit - done);
    if (behind.length === 0) await markDocumentsRendered(trx, accountId, version);
    else await renderTargets(trx, behind);
    done += Math.max(1, behind.length);
  }
  return done;
}

/** Renders and stores the documents of some contacts, each labelled with its account's version. */
async function renderTargets(
  trx: Kysely<Database>,
  targets: readonly DocumentTarget[],
): Promise<void> {
  for (const [accountId, ofAccount] of Map.groupBy(targets, (row) => row.account_id)) {
    // The version before the rows it labels (lockDocumentVersionsOfContacts).
    const version = await lockDocumentVersion(trx, accountId);
    const account = await findAccountById(trx, accountId);
    if (!account || version === undefined) continue;
    const rendered = await renderContactDocuments(
      trx,
      account,
      ofAccount.map((row) => row.id),
    );
    for (const [id, document] of rendered) await storeContactDocument(trx, id, document, version);
  }
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
