import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { OPERATION_POLICY } from '../http/operation-policy.ts';
import { databaseSnapshot } from '../test/db-snapshot.ts';
import {
  OPERATION_NAMES,
  callOperation,
  isErrorShape,
  prepareCall,
  seedAccount,
  type AccountSeed,
} from '../test/fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from '../test/harness.ts';
import type { CreatedClient } from './clients.service.ts';
import { Browser, createPerson, obtainTokens, registerClient } from './oauth-test-support.ts';
import { SCOPES, type Scope } from './scopes.ts';

/**
 * Issue #4 scopes, generated from the `scope` of each operation (http/operation-policy.ts) like SECURITY.md 16 is from ROUTE_PERMISSIONS: for
 * every operation, an access token of a superadmin granted every scope but the operation's gets 403
 * and changes nothing; a token granted that scope alone gets through.
 */
describeEachDialect('OAuth scopes per operation', (dialect) => {
  let server: TestServer;
  let seed: AccountSeed;
  let client: CreatedClient;
  /** One signed-in browser per kind of administrator: tokens are minted without a password. */
  const people = {
    account: { username: '', browser: new Browser() },
    global: { username: '', browser: new Browser() },
  };
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seed = await seedAccount(server, server.account.id, server.account.name);
    client = await registerClient(server);
    people.account.username = (await createPerson(server)).username;
    people.global.username = (
      await createPerson(server, { accountId: null, permissions: ['superadmin', 'account'] })
    ).username;
  });
  afterAll(() => server.close());

  async function tokenFor(kind: 'account' | 'global', scopes: readonly Scope[]): Promise<string> {
    const scope = scopes.join(' ');
    const cached = tokens.get(`${kind} ${scope}`);
    if (cached) return cached;
    const { username, browser } = people[kind];
    const granted = await obtainTokens(server, { client, username, browser, scope });
    expect(granted.scope).toBe(scope);
    tokens.set(`${kind} ${scope}`, granted.access_token);
    return granted.access_token;
  }

  it('names the scope of every operation of the contract', () => {
    expect(Object.keys(OPERATION_POLICY).sort()).toEqual([...OPERATION_NAMES].sort());
    // Every scope is used by some operation: none is offered for nothing.
    const used = Object.values(OPERATION_POLICY).map((policy) => policy.scope);
    expect(new Set(used.filter((scope) => scope !== null))).toEqual(new Set(SCOPES));
  });

  it('answers who is calling to a token granted any one scope (caller.get needs none)', async () => {
    const token = await tokenFor('account', ['messages:read']);
    const response = await callOperation(server, 'caller.get', { key: token });
    expect(response.status, response.body).toBe(200);
    expect(response.json).toMatchObject({ administrator: { username: people.account.username } });
  });

  for (const name of OPERATION_NAMES) {
    const scope = OPERATION_POLICY[name].scope;
    if (scope === null) continue;
    const rule = ROUTE_PERMISSIONS[name];
    // A group-wide operation an account's own principal may call on its own account (OWN_ACCOUNT):
    // its token needs the same scope.
    const kinds = rule.global
      ? rule.ownAccount
        ? (['global', 'account'] as const)
        : (['global'] as const)
      : (['account'] as const);
    for (const kind of kinds) {
      const who = rule.global && kind === 'account' ? ' (an account’s own token)' : '';

      it(`${name}${who}: 403 without ${scope}`, async () => {
        const token = await tokenFor(
          kind,
          SCOPES.filter((s) => s !== scope && (kind === 'global' || !s.startsWith('accounts:'))),
        );
        const { pathId, form, query } = await prepareCall(server, name, seed, true);
        const before = await databaseSnapshot(server.database.db);
        const response = await callOperation(server, name, { key: token, pathId, form, query });
        expect(response.status, response.body).toBe(403);
        expect(isErrorShape(response.json), response.body).toBe(true);
        expect(await databaseSnapshot(server.database.db)).toBe(before);
      });

      it(`${name}${who}: allowed with ${scope} alone`, async () => {
        const token = await tokenFor(kind, [scope]);
        const { pathId, form, query } = await prepareCall(server, name, seed, true);
        const response = await callOperation(server, name, { key: token, pathId, form, query });
        expect(response.status, response.body).toBeGreaterThanOrEqual(200);
        expect(response.status, response.body).toBeLessThan(300);
      });
    }
  }
});
