import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findAccountById } from '../repositories/accounts.repository.ts';
import {
  accountsBehind,
  lockContactsWithoutDocument,
  lockDocumentsBehind,
  lockDocumentVersion,
  markDocumentsRendered,
  storeContactDocument,
  type DocumentTarget,
} from '../repositories/contact-documents.repository.ts';
import { renderContactDocuments } from './contact-document-render.ts';

/*
 * The background renderer of the stored contact documents (their mechanism:
 * contact-document-store.ts): it brings back those a write left behind outside a unit of work
 * (the demo's bulk load) and those behind their account's version.
 */

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
