// Generated from OPERATIONS (operations.ts) by browser-tables.test.ts: edit the operation's entry
// there, then `npx vitest run src/api/browser-tables.test.ts -u` rewrites this file (extension-operations/messages.ts).
import type { OperationCall, OperationName } from '../operations.ts';
import { MessageImage, MessageImageQuery } from '../schemas/message.ts';

/** What the client sends and reads of the messages.* extension's operations. */
export const OPERATIONS: Partial<Record<OperationName, OperationCall>> = {
  'messages.image': { method: 'GET', path: '/messages/:id/images/', query: MessageImageQuery, response: MessageImage },
};
