import { describe, expect, it } from 'vitest';
import {
  clientOperationsSource,
  operationPermissionsSource,
} from './test-support/browser-tables.ts';

/**
 * The browser loads two tables written from OPERATIONS rather than OPERATIONS itself
 * (test-support/browser-tables.ts says why). They are what would be written now: after an entry
 * changes, `npx vitest run src/api/browser-tables.test.ts -u` rewrites them.
 */
describe('the tables the browser loads', () => {
  it('client-operations.ts: method, path and schemas of every operation', async () => {
    await expect(await clientOperationsSource()).toMatchFileSnapshot('./client-operations.ts');
  });

  it('operation-permissions.ts: the permissions of every operation', async () => {
    await expect(operationPermissionsSource()).toMatchFileSnapshot('./operation-permissions.ts');
  });
});
