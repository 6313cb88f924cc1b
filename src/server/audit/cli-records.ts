import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AuditRecord, AuditSource } from './audit-record.ts';
import { openTrail } from './audit-trail.ts';
import { changesBetween } from './changes.ts';
import { recordAudit } from './record.ts';
import { secretChange } from './secrets.ts';

/*
 * The command line's writes (`listkeeper account create`, `key create`, …; cli-commands.ts): the
 * system's, run by whoever holds the machine, from no address. Each command's rows and its entry
 * commit together. What a command prints once (a key, a client secret, a password read from
 * stdin) is recorded as a secret change: issued, never its value.
 */

export const CLI_SOURCE: AuditSource = { actor: { type: 'system' }, address: null, service: 'cli' };

/** Runs a command's writes in one transaction and records what `describe` says of their result. */
export async function withCliRecord<T>(
  db: Kysely<Database>,
  now: Date,
  work: (trx: Kysely<Database>) => Promise<T>,
  describe: (result: T) => AuditRecord[],
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    openTrail(trx, CLI_SOURCE);
    const result = await work(trx);
    await recordAudit(trx, now, describe(result));
    return result;
  });
}

/** Records in a transaction someone else opened (a service that opens its own). */
export async function recordCli(
  trx: Kysely<Database>,
  now: Date,
  records: AuditRecord[],
): Promise<void> {
  openTrail(trx, CLI_SOURCE);
  await recordAudit(trx, now, records);
}

export function createdRecord(
  accountId: number | null,
  operation: string,
  object: AuditRecord['object'],
  fields: Record<string, unknown>,
  secrets: readonly string[] = [],
): AuditRecord {
  return {
    accountId,
    operation,
    object,
    changes: [
      ...changesBetween(null, fields),
      ...secrets.map((field) => secretChange(field, true)),
    ],
  };
}
