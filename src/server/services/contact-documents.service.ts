import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findAccountById } from '../repositories/accounts.repository.ts';
import {
  lockContactsWithoutDocument,
  storeContactDocument,
} from '../repositories/contact-documents.repository.ts';
import { renderContactDocuments } from './contacts.service.ts';

/** Contacts rendered per transaction: a few milliseconds of the one SQLite connection at a time. */
export const DOCUMENT_BATCH = 200;

/**
 * Renders the documents of up to `limit` contacts that have none (migration 0500), within the
 * caller's transaction; answers how many it rendered. Writes that change what a document shows
 * null it (a list renamed, a custom field added, the demo's bulk load), and this brings it back.
 */
export async function renderMissingDocumentsWithin(trx: Kysely<Database>, limit: number): Promise<number> {
  const rows = await lockContactsWithoutDocument(trx, limit);
  for (const [accountId, ofAccount] of Map.groupBy(rows, (row) => row.account_id)) {
    const account = await findAccountById(trx, accountId);
    if (!account) continue;
    const rendered = await renderContactDocuments(trx, account, ofAccount.map((row) => row.id));
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
        const rendered = await db.transaction().execute((trx) => renderMissingDocumentsWithin(trx, DOCUMENT_BATCH));
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
