import type { AuditActor, AuditRecord } from './audit-record.ts';

/*
 * The members' workflow (issue 25; members/workflow.ts): a request asked, a request confirmed by
 * its address, a member who joined or left, by whichever path (the list's page, one-click, the
 * member's page, a moderator's approval). The actor is the address when the address acts (its
 * request, its confirmation, its link), unset when a moderator's approval carries the change out
 * (the transaction's trail names the moderator).
 */

interface OnList {
  id: number;
  accountId: number;
  name: string;
}

function onList(list: OnList, type: 'request' | 'membership', id: number | null) {
  return { type, id, listId: list.id, list: list.name } as const;
}

/** A request to join or leave was made; its confirmation is mailed to the address. */
export function askedRecord(
  list: OnList,
  request: { id: number; kind: string; address: string; source: string },
): AuditRecord {
  return {
    accountId: list.accountId,
    operation: 'member.ask',
    object: onList(list, 'request', request.id),
    details: { kind: request.kind, address: request.address, source: request.source },
    actor: { type: 'address', address: request.address },
  };
}

/** The address confirmed its request: it now waits for a moderator, or the list is closed to it. */
export function confirmedRecord(
  list: OnList,
  request: { id: number; kind: string; address: string },
  outcome: 'waiting' | 'closed',
): AuditRecord {
  return {
    accountId: list.accountId,
    operation: 'member.confirm',
    object: onList(list, 'request', request.id),
    details: { kind: request.kind, address: request.address, outcome },
    actor: { type: 'address', address: request.address },
  };
}

/** A membership made (`member.join`) or ended (`member.leave`). */
export function membershipRecord(
  list: OnList,
  change: 'join' | 'leave',
  member: { membershipId: number | null; contactId: number; email: string },
  by: AuditActor | undefined,
  details: Record<string, unknown> = {},
): AuditRecord {
  return {
    accountId: list.accountId,
    operation: `member.${change}`,
    object: onList(list, 'membership', member.membershipId),
    details: { address: member.email, contact: member.contactId, ...details },
    ...(by ? { actor: by } : {}),
  };
}
