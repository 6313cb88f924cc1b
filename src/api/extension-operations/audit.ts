// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (extension-operations/audit.ts).
import type { OperationCall, OperationName } from '../operations.ts';
import { AuditPage, AuditQuery } from '../schemas/audit.ts';

/** What the client sends and reads of the audit.* extension's operations. */
export const OPERATIONS: Partial<Record<OperationName, OperationCall>> = {
  'audit.list': { method: 'GET', path: '/audit/', query: AuditQuery, response: AuditPage },
};
