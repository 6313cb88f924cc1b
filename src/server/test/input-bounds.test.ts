import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOTIFICATIONS, PERMISSIONS } from '../../api/constants.ts';
import { OPERATIONS } from '../../api/operations.ts';
import { inputBounds, type InputBound } from '../../api/test-support/input-bounds.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { createCustomField } from '../services/custom-fields.service.ts';
import { isErrorShape, prepareCall, seedAccount, urlOf, type AccountSeed } from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * SECURITY.md 21, issue 16 findings 1 and 5: every string and array of the contract has a maximum
 * (src/api/constants.ts), and one character or one value past it is a 400 in the spec's error shape
 * that names the field, on every operation, in the query and in the body. Generated from the
 * contract, so a field added without a maximum fails the contract test and gets a case here.
 */

const CUSTOM_FIELD = 'shoe_size';

/** A valid value for one element of an array field, distinct per index. */
function element(field: string, index: number): string {
  if (field === 'permissions') return PERMISSIONS[index % PERMISSIONS.length] ?? 'superadmin';
  if (field === 'notifications') return NOTIFICATIONS[index % NOTIFICATIONS.length] ?? 'account';
  if (/emails$/.test(field)) return `bound${index}@bounds.example`;
  if (/^(taboo|restrict_contact)/.test(field)) return `^x${index}$`;
  return `v${index}`;
}

/** One past the maximum: a character too many, or a (valid) value too many. */
function overLong(bound: InputBound): string | string[] {
  const max = bound.max ?? 0;
  if (bound.kind === 'array') return Array.from({ length: max + 1 }, (_, index) => element(bound.field, index));
  const value = 'x'.repeat(max + 1);
  return bound.element ? [value] : value;
}

describeEachDialect('input bounds (SECURITY.md 21)', (dialect) => {
  let server: TestServer;
  let seed: AccountSeed;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const account = await server.createAccount('bounded');
    key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
    seed = await seedAccount(server, account.id, 'bounds');
    await createCustomField(server.database.db, { accountId: account.id, name: CUSTOM_FIELD });
  });
  afterAll(() => server.close());

  const bounds = inputBounds();

  it('has cases to run', () => {
    expect(bounds.length).toBeGreaterThan(100);
  });

  for (const bound of bounds) {
    const label = `${bound.operation} ${bound.where} ${bound.field}${bound.element ? '[]' : ''}: ${bound.kind} over ${String(bound.max)}`;
    it(`refuses ${label} with 400 naming the field`, async () => {
      const operation = OPERATIONS[bound.operation];
      const prepared = await prepareCall(server, bound.operation, seed, true);
      const field = bound.field === '*' ? CUSTOM_FIELD : bound.field;
      const value = overLong(bound);
      const query = { ...prepared.query, ...(bound.where === 'query' ? { [field]: value } : {}) };
      const form = bound.where === 'body' ? { ...prepared.form, [field]: value } : undefined;
      const url = urlOf(bound.operation, prepared.pathId);
      const global = ROUTE_PERMISSIONS[bound.operation].global === true;
      const response = await server.request(operation.method, url, {
        key: global ? server.globalKey : key,
        query,
        ...(form ? { form } : {}),
      });
      expect(response.status, response.body.slice(0, 300)).toBe(400);
      expect(isErrorShape(response.json), response.body.slice(0, 300)).toBe(true);
      expect((response.json as { message: string }).message).toMatch(new RegExp(`^${field}\\b`));
    });
  }
});
