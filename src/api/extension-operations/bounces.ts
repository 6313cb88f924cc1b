// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (extension-operations/bounces.ts).
import type { OperationCall, OperationName } from '../operations.ts';
import { BounceClearOutcome, BouncePage, BounceQuery } from '../schemas/bounce.ts';

/** What the client sends and reads of the bounces.* extension's operations. */
export const OPERATIONS: Partial<Record<OperationName, OperationCall>> = {
  'bounces.list': { method: 'GET', path: '/bounces/', query: BounceQuery, response: BouncePage },
  'bounces.clear': { method: 'POST', path: '/bounces/:id/clear/', response: BounceClearOutcome },
};
