// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (extension-operations/held.ts).
import type { OperationCall, OperationName } from '../operations.ts';
import { NoQuery } from '../primitives.ts';
import { HeldBulk, HeldBulkOutcome, HeldMessageDetail, HeldOutcome, HeldPage, HeldQuery, HeldReject, HeldSource } from '../schemas/held.ts';

/** What the client sends and reads of the held.* extension's operations. */
export const OPERATIONS: Partial<Record<OperationName, OperationCall>> = {
  'held.list': { method: 'GET', path: '/held/', query: HeldQuery, response: HeldPage },
  'held.get': { method: 'GET', path: '/held/:id/', query: NoQuery, response: HeldMessageDetail },
  'held.source': { method: 'GET', path: '/held/:id/source/', query: NoQuery, response: HeldSource },
  'held.approve': { method: 'POST', path: '/held/:id/approve/', response: HeldOutcome },
  'held.reject': { method: 'POST', path: '/held/:id/reject/', body: HeldReject, response: HeldOutcome },
  'held.discard': { method: 'POST', path: '/held/:id/discard/', response: HeldOutcome },
  'held.bulk': { method: 'POST', path: '/held/bulk/', body: HeldBulk, response: HeldBulkOutcome },
};
