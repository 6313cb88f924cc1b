import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * A write's answer that is read once its transaction has committed, with the database rather than
 * the transaction (define-route.ts): for an answer too big to read while holding the writer's
 * connection (a list's member ids, SECURITY.md 29), which the write did not change.
 */
export class AfterCommit<T> {
  readonly read: (db: Kysely<Database>) => Promise<T>;
  constructor(read: (db: Kysely<Database>) => Promise<T>) {
    this.read = read;
  }
}
