import type { Kysely } from 'kysely';
import type { AuditSource } from '../audit/audit-record.ts';
import { openTrail } from '../audit/audit-trail.ts';
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

/**
 * Runs a write's work in one transaction, committed with what it changed (unitOfWork). `source`
 * says who makes the change, from where and how, for the audit entries written in it (issue 26
 * item 4); without it they are the system's.
 */
export type UnitOfWork = <T>(
  work: (trx: Kysely<Database>) => Promise<T>,
  source?: Partial<AuditSource>,
) => Promise<T>;

/**
 * The unit of work of a write: one transaction in which the repositories note the contacts they
 * change (repositories/changed-contacts.ts), and `beforeCommit` then brings what derives from them
 * up to date, so that the next read finds it; and whose audit trail (audit/audit-trail.ts) says who
 * makes the change, so that its audit entries commit with it or not at all. Built once, in app.ts;
 * `auditLog` false (a server measured without it) records nothing.
 */
export function unitOfWork(
  db: Kysely<Database>,
  beforeCommit: BeforeCommit,
  auditLog = true,
): UnitOfWork {
  return (work, source) =>
    db.transaction().execute(async (trx) => {
      const changed = collectChangedContacts(trx);
      openTrail(trx, source, auditLog);
      const result = await work(trx);
      await beforeCommit(trx, changed);
      return result;
    });
}
