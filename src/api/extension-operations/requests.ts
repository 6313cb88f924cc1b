// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (extension-operations/requests.ts).
import type { OperationCall, OperationName } from '../operations.ts';
import { RequestBulk, RequestBulkOutcome, RequestOutcome, RequestPage, RequestQuery, RequestReject } from '../schemas/request.ts';

/** What the client sends and reads of the requests.* extension's operations. */
export const OPERATIONS: Partial<Record<OperationName, OperationCall>> = {
  'requests.list': { method: 'GET', path: '/requests/', query: RequestQuery, response: RequestPage },
  'requests.approve': { method: 'POST', path: '/requests/:id/approve/', response: RequestOutcome },
  'requests.reject': { method: 'POST', path: '/requests/:id/reject/', body: RequestReject, response: RequestOutcome },
  'requests.discard': { method: 'POST', path: '/requests/:id/discard/', response: RequestOutcome },
  'requests.bulk': { method: 'POST', path: '/requests/bulk/', body: RequestBulk, response: RequestBulkOutcome },
};
