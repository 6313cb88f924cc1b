// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (extension-operations/fields.ts).
import type { OperationCall, OperationName } from '../operations.ts';
import { NoQuery } from '../primitives.ts';
import { CustomField, FieldCollection, FieldCreate, FieldDeleted, FieldUpdate } from '../schemas/field.ts';

/** What the client sends and reads of the fields.* extension's operations. */
export const OPERATIONS: Partial<Record<OperationName, OperationCall>> = {
  'fields.list': { method: 'GET', path: '/fields/', query: NoQuery, response: FieldCollection, collection: true },
  'fields.create': { method: 'POST', path: '/fields/', body: FieldCreate, response: CustomField },
  'fields.update': { method: 'PUT', path: '/fields/:id/', body: FieldUpdate, response: CustomField },
  'fields.delete': { method: 'DELETE', path: '/fields/:id/', response: FieldDeleted },
};
