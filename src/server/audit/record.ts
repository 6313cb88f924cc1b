import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { insertAuditRows, type NewAuditRow } from '../repositories/audit.repository.ts';
import type { AuditActor, AuditRecord } from './audit-record.ts';
import { trailOf } from './audit-trail.ts';
import { withoutSecrets } from './secrets.ts';

/**
 * Writes entries in `db`'s transaction, so that they commit with the change they describe or not
 * at all (a write acknowledged is a write recorded, even when the process is killed the instant
 * after). Who, from where and how come from the transaction's trail unless an entry names its
 * own; `now` is the server's clock. Values pass the secret filter once more on the way in
 * (secrets.ts), whatever the caller already left out.
 */
export async function recordAudit(
  db: Kysely<Database>,
  now: Date,
  records: readonly AuditRecord[],
): Promise<void> {
  const trail = trailOf(db);
  if (!trail.enabled || records.length === 0) return;
  const time = now.toISOString();
  await insertAuditRows(
    db,
    records.map((record): NewAuditRow => {
      const actor = record.actor ?? trail.source.actor;
      return {
        account_id: record.accountId,
        time,
        ...actorColumns(actor),
        address: record.address === undefined ? trail.source.address : record.address,
        service: record.service ?? trail.source.service,
        operation: record.operation,
        object_type: record.object.type,
        object_id: record.object.id === null ? null : String(record.object.id),
        list_id: record.object.listId,
        list_name: record.object.list ?? null,
        changes: JSON.stringify(withoutSecrets(record.changes ?? [])),
        details: JSON.stringify(withoutSecrets(record.details ?? {})),
      };
    }),
  );
  trail.recorded += records.length;
}

function actorColumns(
  actor: AuditActor,
): Pick<NewAuditRow, 'actor_type' | 'actor_id' | 'actor_name'> {
  switch (actor.type) {
    case 'administrator':
      return { actor_type: 'administrator', actor_id: actor.id, actor_name: null };
    case 'address':
      return { actor_type: 'address', actor_id: null, actor_name: actor.address };
    case 'system':
      return { actor_type: 'system', actor_id: null, actor_name: null };
  }
}
