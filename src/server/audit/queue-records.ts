import type { HeldAction } from '../../api/schemas/held.ts';
import type { RequestAction } from '../../api/schemas/request.ts';
import type { AuditRecord } from './audit-record.ts';

/*
 * The moderators' queues (extensions `held.*`, `requests.*`): each message or request settled is
 * an entry of its own, a bulk action's too, named by the action (`held.approve`, not `held.bulk`),
 * with what a moderator reads in the queue. The services call these with the rows they settled.
 */

/** Subjects can be long; an entry keeps what names the message. */
const SUBJECT_KEPT = 998;

export function heldRecord(
  accountId: number,
  held: {
    id: number;
    list_id: number;
    list: string;
    subject: string;
    from_address: string;
    message_id: string;
    rule: string;
  },
  action: HeldAction,
  outcome: { message: number | string | null },
  reason: string | undefined,
): AuditRecord {
  return {
    accountId,
    operation: `held.${action}`,
    object: { type: 'held_message', id: held.id, listId: held.list_id, list: held.list },
    details: {
      subject: held.subject.slice(0, SUBJECT_KEPT),
      from: held.from_address,
      message_id: held.message_id,
      rule: held.rule,
      ...(outcome.message === null ? {} : { message: outcome.message }),
      ...(reason === undefined ? {} : { reason }),
    },
  };
}

export function requestRecord(
  accountId: number,
  request: {
    id: number;
    list_id: number;
    list_name: string;
    kind: string;
    address: string;
    source: string;
  },
  action: RequestAction,
  reason: string | undefined,
): AuditRecord {
  return {
    accountId,
    operation: `requests.${action}`,
    object: { type: 'request', id: request.id, listId: request.list_id, list: request.list_name },
    details: {
      kind: request.kind,
      address: request.address,
      source: request.source,
      ...(reason === undefined ? {} : { reason }),
    },
  };
}
