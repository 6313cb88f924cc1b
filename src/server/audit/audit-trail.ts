import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { SYSTEM_SOURCE, type AuditSource } from './audit-record.ts';

/**
 * The audit trail of one write transaction: who, from where and how its changes are made, bound
 * to the transaction by whoever opens it (the unit of work of a request, db/unit-of-work.ts; the
 * command line), so that what records within it (the route pipeline's write step, the members'
 * workflow, the held and request queues) needs no more than the transaction it already holds.
 * A transaction without one records as the system.
 */
export interface AuditTrail {
  readonly source: AuditSource;
  /** False in a server built without the audit log (the bench measures its cost so). */
  readonly enabled: boolean;
  /** Entries written so far in the transaction. */
  recorded: number;
}

const trails = new WeakMap<Kysely<Database>, AuditTrail>();

/** Binds `source` to the transaction `trx` until it ends (the WeakMap lets it go with it). */
export function openTrail(
  trx: Kysely<Database>,
  source: Partial<AuditSource> = {},
  enabled = true,
): AuditTrail {
  const trail: AuditTrail = { source: { ...SYSTEM_SOURCE, ...source }, enabled, recorded: 0 };
  trails.set(trx, trail);
  return trail;
}

/** The transaction's trail; a transaction nobody bound one to records as the system. */
export function trailOf(db: Kysely<Database>): AuditTrail {
  return trails.get(db) ?? { source: SYSTEM_SOURCE, enabled: true, recorded: 0 };
}
