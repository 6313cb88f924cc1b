import type { Kysely } from 'kysely';
import { collectChangedContacts } from '../repositories/changed-contacts.ts';
import type { Database } from './schema.ts';

/**
 * What a write does in its transaction once its own work is done and before it commits, knowing
 * the contacts it changed: the server stores their documents (services/contact-document-store.ts).
 */
export type BeforeCommit = (
  trx: Kysely<Database>,
  changedContacts: ReadonlySet<number>,
) => Promise<void>;

/** Runs a write's work in one transaction, committed with what it changed (unitOfWork). */
export type UnitOfWork = <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

/**
 * The unit of work of a write: one transaction in which the repositories note the contacts they
 * change (repositories/changed-contacts.ts), and `beforeCommit` then brings what derives from them
 * up to date, so that the next read finds it. Built once, in app.ts.
 */
export function unitOfWork(db: Kysely<Database>, beforeCommit: BeforeCommit): UnitOfWork {
  return (work) =>
    db.transaction().execute(async (trx) => {
      const changed = collectChangedContacts(trx);
      const result = await work(trx);
      await beforeCommit(trx, changed);
      return result;
    });
}
