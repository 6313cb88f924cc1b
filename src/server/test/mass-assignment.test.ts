import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as z from 'zod';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import { isReadOnlyMarker, shapeOf, writableKeys } from '../../api/test-support/zod-walk.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { databaseSnapshot } from './db-snapshot.ts';
import { OPERATION_NAMES, callOperation, isErrorShape, prepareCall, seedAccount, type AccountSeed } from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * SECURITY.md 17, mass assignment: every write of the contract's table, given a valid body plus one
 * read-only field of its schema or one field that is no API field at all (column names, other
 * resources' fields, prototype names), answers 400 in the error shape and changes no row.
 */

/** Names a client might try: columns, other objects' fields, privileges, prototype members. */
const FOREIGN_FIELDS = [
  'id',
  'created',
  'confirmed',
  'account',
  'account_id',
  'contacts',
  'api',
  'administrator_id',
  'password_hash',
  'key_hash',
  'search_text',
  'is_admin',
  'unknown_field',
  'constructor',
  '__proto__',
];

function bodyOf(name: OperationName): z.ZodType | undefined {
  const operation = OPERATIONS[name];
  return 'body' in operation ? operation.body : undefined;
}

/** The read-only fields the schema declares, then every foreign name it does not accept. */
function refusedFields(schema: z.ZodType): string[] {
  const readOnly = Object.entries(shapeOf(schema))
    .filter(([, field]) => isReadOnlyMarker(field))
    .map(([key]) => key);
  const writable = new Set(writableKeys(schema));
  return [...new Set([...readOnly, ...FOREIGN_FIELDS.filter((field) => !writable.has(field))])];
}

describeEachDialect('mass assignment (SECURITY.md 17)', (dialect) => {
  let server: TestServer;
  let seed: AccountSeed;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seed = await seedAccount(server, server.account.id, server.account.name);
  });
  afterAll(() => server.close());

  for (const name of OPERATION_NAMES) {
    const schema = bodyOf(name);
    if (!schema) continue;
    const fields = refusedFields(schema);

    it(`${name}: 400 and no change for ${fields.join(', ')}`, async () => {
      const key = ROUTE_PERMISSIONS[name].global ? server.globalKey : server.accountKey;
      const accepted: string[] = [];
      for (const field of fields) {
        const { pathId, form } = await prepareCall(server, name, seed);
        // The object's own id is the most tempting value: "unchanged" must not make it acceptable.
        const value = field === 'id' && pathId ? pathId : '1';
        // fromEntries defines `__proto__` as an own key, as a form decoder would receive it.
        const body = Object.fromEntries([...Object.entries(form ?? {}), [field, value]]) as Record<string, unknown>;
        const before = await databaseSnapshot(server.database.db);
        const response = await callOperation(server, name, { key, pathId, form: body });
        const changed = (await databaseSnapshot(server.database.db)) !== before;
        if (response.status !== 400 || !isErrorShape(response.json) || changed) {
          accepted.push(`${field}: ${response.status} ${response.body.slice(0, 160)}${changed ? ' (rows changed)' : ''}`);
        }
      }
      expect(accepted).toEqual([]);
    });
  }
});
