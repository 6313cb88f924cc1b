import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findAccountById } from '../repositories/accounts.repository.ts';
import {
  lockContactsWithoutDocument,
  storeContactDocument,
} from '../repositories/contact-documents.repository.ts';
import { findContactsWithChildrenByIds } from '../repositories/contacts.repository.ts';
import { findFieldsByAccount } from '../repositories/custom-fields.repository.ts';
import { renderContactDocument } from './contacts.service.ts';

/** Contacts rendered per transaction: a few milliseconds of the one SQLite connection at a time. */
export const DOCUMENT_BATCH = 200;

/**
 * Renders the documents of up to `limit` contacts that have none (migration 0500), within the
 * caller's transaction; answers how many it rendered. Writes that change what a document shows
 * null it (a list renamed, a custom field added, the demo's bulk load), and this brings it back.
 */
export async function renderMissingDocumentsWithin(trx: Kysely<Database>, limit: number): Promise<number> {
  const rows = await lockContactsWithoutDocument(trx, limit);
  const byAccount = new Map<number, number[]>();
  for (const { id, account_id } of rows) {
    const ids = byAccount.get(account_id);
    if (ids) ids.push(id);
    else byAccount.set(account_id, [id]);
  }
  for (const [accountId, ids] of byAccount) {
    const account = await findAccountById(trx, accountId);
    if (!account) continue;
    const fields = await findFieldsByAccount(trx, accountId);
    for (const contact of await findContactsWithChildrenByIds(trx, ids)) {
      await storeContactDocument(trx, contact.row.id, renderContactDocument(account, contact, fields));
    }
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
