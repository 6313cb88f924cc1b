import type { AuditChange, AuditEntry } from '../../api/schemas/audit.ts';
import type { AuditRow } from './audit.repository.ts';

/** Row → an entry of `GET /audit/` (schemas/audit.ts). */
export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    time: row.time,
    actor: {
      type: row.actor_type,
      id: row.actor_id === null ? null : Number(row.actor_id),
      name: row.actor_name,
    },
    address: row.address,
    service: row.service,
    operation: row.operation,
    object: { type: row.object_type, id: row.object_id, list: row.list_name },
    changes: JSON.parse(row.changes) as AuditChange[],
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}
