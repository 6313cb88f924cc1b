import { afterAll, beforeAll, expect, it } from 'vitest';
import { PERMISSIONS } from '../../api/constants.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { missingOperations } from '../routes/register-routes.ts';
import { databaseSnapshot } from './db-snapshot.ts';
import { OPERATION_NAMES, callOperation, isErrorShape, prepareCall, seedAccount, type AccountSeed } from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * SECURITY.md 16, function-level authorization, generated from ROUTE_PERMISSIONS: for every
 * operation, a key holding every permission but the ones that allow it (and not superadmin) gets
 * 403 and changes nothing; a key holding just one of them gets through. Group-wide operations
 * (accounts) are tried with global keys, the rest with keys of one account.
 */
describeEachDialect('function-level authorization (SECURITY.md 16)', (dialect) => {
  let server: TestServer;
  let seed: AccountSeed;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seed = await seedAccount(server, server.account.id, server.account.name);
  });
  afterAll(() => server.close());

  it('has a route for every operation of the contract', () => {
    expect(missingOperations(server.app)).toEqual([]);
  });

  it('names the permissions of every operation of the contract, and of nothing else', () => {
    expect(Object.keys(ROUTE_PERMISSIONS).sort()).toEqual([...OPERATION_NAMES].sort());
    for (const name of OPERATION_NAMES) expect(ROUTE_PERMISSIONS[name].anyOf.length, name).toBeGreaterThan(0);
  });

  for (const name of OPERATION_NAMES) {
    const rule = ROUTE_PERMISSIONS[name];
    const accountId = () => (rule.global ? null : server.account.id);

    it(`${name}: 403 without ${rule.anyOf.join(' or ')}`, async () => {
      const permissions = PERMISSIONS.filter((p) => p !== 'superadmin' && !rule.anyOf.includes(p));
      const key = await server.createKey({ accountId: accountId(), permissions });
      const { pathId, form, query } = await prepareCall(server, name, seed, true);
      const before = await databaseSnapshot(server.database.db);
      const response = await callOperation(server, name, { key, pathId, form, query });
      expect(response.status, response.body).toBe(403);
      expect(isErrorShape(response.json), response.body).toBe(true);
      expect(await databaseSnapshot(server.database.db)).toBe(before);
    });

    it(`${name}: allowed by each of ${rule.anyOf.join(', ')} alone`, async () => {
      const refused: string[] = [];
      for (const permission of rule.anyOf) {
        const key = await server.createKey({ accountId: accountId(), permissions: [permission] });
        const { pathId, form, query } = await prepareCall(server, name, seed, true);
        const response = await callOperation(server, name, { key, pathId, form, query });
        if (response.status < 200 || response.status > 299) {
          refused.push(`${permission}: ${response.status} ${response.body.slice(0, 200)}`);
        }
      }
      expect(refused).toEqual([]);
    });

    // Extension (operations.ts OWN_ACCOUNT): an account's own key on its own account.
    const own = rule.ownAccount;
    if (own === undefined) continue;

    it(`${name} on its own account with an account key: 403 without ${own.join(' or ')}`, async () => {
      const permissions = PERMISSIONS.filter((p) => p !== 'superadmin' && !own.includes(p));
      const key = await server.createKey({ accountId: server.account.id, permissions });
      const { pathId, form, query } = await prepareCall(server, name, seed, true);
      const before = await databaseSnapshot(server.database.db);
      const response = await callOperation(server, name, { key, pathId, form, query });
      expect(response.status, response.body).toBe(403);
      expect(isErrorShape(response.json), response.body).toBe(true);
      expect(await databaseSnapshot(server.database.db)).toBe(before);
    });

    it(`${name} on its own account with an account key: allowed by each of ${own.join(', ')} alone`, async () => {
      for (const permission of own) {
        const key = await server.createKey({ accountId: server.account.id, permissions: [permission] });
        const { pathId, form, query } = await prepareCall(server, name, seed, true);
        const response = await callOperation(server, name, { key, pathId, form, query });
        expect(response.status, `${permission}: ${response.body}`).toBe(200);
      }
    });
  }
});
