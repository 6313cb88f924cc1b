import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import {
  clientOperationsSource,
  extensionGroups,
  extensionOperationsSource,
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

  it.each(extensionGroups())('extension-operations/%s.ts: an extension\'s, loaded on first use', async (group) => {
    await expect(await extensionOperationsSource(group)).toMatchFileSnapshot(
      `./extension-operations/${group}.ts`,
    );
  });

  it('extension-operations/ holds no table of an extension that is gone', () => {
    const files = readdirSync(new URL('./extension-operations/', import.meta.url)).sort();
    expect(files).toEqual(extensionGroups().map((group) => `${group}.ts`));
  });

  it('operation-permissions.ts: the permissions of every operation', async () => {
    await expect(operationPermissionsSource()).toMatchFileSnapshot('./operation-permissions.ts');
  });
});
