import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The contacts each open write transaction has changed, by transaction. The repositories that write
 * a contact's rows (its own, addresses, memberships, custom values) note the contact here; the
 * unit of work (db/unit-of-work.ts) opens the set and, before commit, stores the documents of the
 * contacts in it (services/contact-document-store.ts, migration 0500). A write outside such a transaction notes
 * nothing: the triggers null the documents and the background renderer brings them back.
 */
const changedIn = new WeakMap<Kysely<Database>, Set<number>>();

/** Starts collecting the contacts changed within `trx`; answers the set it fills. */
export function collectChangedContacts(trx: Kysely<Database>): ReadonlySet<number> {
  const changed = new Set<number>();
  changedIn.set(trx, changed);
  return changed;
}

/** Notes that these contacts' rows changed within `db`'s transaction. */
export function noteChangedContacts(db: Kysely<Database>, contactIds: Iterable<number>): void {
  const changed = changedIn.get(db);
  if (!changed) return;
  for (const id of contactIds) changed.add(id);
}
