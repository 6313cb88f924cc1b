import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OperationName } from '../../api/operations.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { accountSnapshot, databaseSnapshot } from './db-snapshot.ts';
import {
  OPERATION_NAMES,
  alternatePathIds,
  callOperation,
  isErrorShape,
  isWrite,
  prepareCall,
  resourceOf,
  seedAccount,
  takesPathId,
  type AccountSeed,
} from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestResponse, type TestServer } from './harness.ts';

/**
 * SECURITY.md 15, broken object-level authorization: {key of A, key of B, global key} × {objects of
 * A, B, C} × every operation of the contract's table × {no account_id, account_id of the objects'
 * account, account_id of another account}. An account key never reaches another account; a global
 * key reaches an account's objects only through that account's `account_id` (spec §4.8). A refused
 * request changes no row anywhere.
 */

type Holder = 'A' | 'B' | 'global';
type Target = 'A' | 'B' | 'C';
type Mode = 'none' | 'target' | 'other';

const HOLDERS: Holder[] = ['A', 'B', 'global'];
const TARGETS: Target[] = ['A', 'B', 'C'];
const MODES: Mode[] = ['none', 'target', 'other'];

type Expectation =
  /** 2xx, and the answer or the target account shows the operation reached the target. */
  | 'success'
  /** 403: the key may not address that account (or accounts at all). */
  | 'forbidden'
  /** 404 (403 accepted): the object is not in the account the request addresses. */
  | 'not-found'
  /** 400: a global key must name an account (spec §4.8). */
  | 'bad-request'
  /** 2xx for the addressed account's own collection, without one object of the target's. */
  | 'isolated-list'
  /** A create whose body names the target's objects from another account: refused (4xx). */
  | 'refused-reference'
  /** A create in another account that names nothing of the target's: the target is untouched. */
  | 'elsewhere'
  /** 2xx with an answer that holds no account's data but the caller's own (the caller.get extension). */
  | 'no-account-data';

/** The outcomes after which no row anywhere may have changed. */
const REFUSALS = new Set<Expectation>(['forbidden', 'not-found', 'bad-request', 'refused-reference']);

describeEachDialect('authorization matrix (SECURITY.md 15)', (dialect) => {
  let server: TestServer;
  const seeds = {} as Record<Target, AccountSeed>;
  const keys = {} as Record<Holder, string>;
  const accountIds = {} as Record<Target, number>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const b = await server.createAccount('tenantb');
    const c = await server.createAccount('tenantc');
    accountIds.A = server.account.id;
    accountIds.B = b.id;
    accountIds.C = c.id;
    keys.A = server.accountKey;
    keys.B = await server.createKey({ accountId: b.id, permissions: ['superadmin'] });
    keys.global = server.globalKey;
    seeds.A = await seedAccount(server, accountIds.A, server.account.name);
    seeds.B = await seedAccount(server, accountIds.B, b.name);
    seeds.C = await seedAccount(server, accountIds.C, c.name);
  });
  afterAll(() => server.close());

  /** The account a request addresses: the key's own, the `account_id` given, or none (global). */
  function scopeOf(holder: Holder, target: Target, mode: Mode): number | null {
    if (mode === 'target') return accountIds[target];
    if (holder !== 'global') return accountIds[holder];
    if (mode === 'none') return null;
    return accountIds[target === 'A' ? 'B' : 'A'];
  }

  function accountIdParam(holder: Holder, target: Target, mode: Mode): number | undefined {
    return mode === 'none' ? undefined : (scopeOf(holder, target, mode) ?? undefined);
  }

  function expectationOf(name: OperationName, holder: Holder, target: Target, mode: Mode, references: boolean): Expectation {
    // The dashboard sends its account_id with every request, the group-wide ones included.
    const rule = ROUTE_PERMISSIONS[name];
    if (rule.global) {
      if (holder === 'global') return 'success';
      // Extension (operations.ts OWN_ACCOUNT): an account's own key reaches its own account only.
      return rule.ownAccount && holder === target ? 'success' : 'forbidden';
    }
    const scope = scopeOf(holder, target, mode);
    if (holder !== 'global' && scope !== accountIds[holder]) return 'forbidden';
    // The caller's own entry and account, never the addressed one's.
    if (resourceOf(name) === 'caller') return holder === target ? 'success' : 'no-account-data';
    if (scope === accountIds[target]) return 'success';
    // Without account_id, a global key reads the group's audit log (accounts, global administrators).
    if (scope === null && resourceOf(name) === 'audit') return 'no-account-data';
    if (scope === null && resourceOf(name) !== 'users') return 'bad-request';
    // Spec §4.8 rule 2: without account_id a global key works on the global users, not the target's.
    if (takesPathId(name)) return 'not-found';
    if (!isWrite(name)) return 'isolated-list';
    return references ? 'refused-reference' : 'elsewhere';
  }

  async function runCell(name: OperationName, holder: Holder, target: Target, mode: Mode): Promise<string[]> {
    const seed = seeds[target];
    const expectationIfReferences = expectationOf(name, holder, target, mode, true);
    const prepared = await prepareCall(server, name, seed, expectationIfReferences === 'success');
    const expectation = expectationOf(name, holder, target, mode, prepared.references);
    const pathIds = prepared.pathId === undefined ? [undefined] : [prepared.pathId, ...alternatePathIds(name, seed)];
    const failures: string[] = [];
    for (const pathId of pathIds) {
      const label = `${name} key=${holder} objects=${target} account_id=${mode}${pathId === prepared.pathId ? '' : ` id=${pathId}`}`;
      // Only the snapshots the judgement reads: they are most of the matrix's cost.
      const whole = REFUSALS.has(expectation) || name === 'accounts.create' || name === 'accounts.delete';
      const scoped = (expectation === 'success' && isWrite(name)) || expectation === 'elsewhere';
      const db = server.database.db;
      const wholeBefore = whole ? await databaseSnapshot(db) : '';
      const targetBefore = scoped ? await accountSnapshot(db, seed.accountId) : '';
      const response = await callOperation(server, name, {
        key: keys[holder],
        accountId: accountIdParam(holder, target, mode),
        pathId,
        form: prepared.form,
        query: prepared.query,
      });
      const wholeChanged = whole && (await databaseSnapshot(db)) !== wholeBefore;
      const targetChanged = scoped && (await accountSnapshot(db, seed.accountId)) !== targetBefore;
      const problem = judge(name, expectation, response, seed, { wholeChanged, targetChanged });
      if (problem) failures.push(`${label}: expected ${expectation}, ${problem}`);
    }
    return failures;
  }

  for (const name of OPERATION_NAMES) {
    it(`${name}: every key × every account × account_id`, async () => {
      const failures: string[] = [];
      for (const holder of HOLDERS) {
        for (const target of TARGETS) {
          for (const mode of MODES) failures.push(...(await runCell(name, holder, target, mode)));
        }
      }
      expect(failures).toEqual([]);
    });
  }
});

function judge(
  name: OperationName,
  expectation: Expectation,
  response: TestResponse,
  seed: AccountSeed,
  changes: { wholeChanged: boolean; targetChanged: boolean },
): string | null {
  const got = `got ${response.status} ${response.body.slice(0, 200)}`;
  const ok = response.status >= 200 && response.status < 300;
  if (response.status >= 500) return got;
  if (!ok && !isErrorShape(response.json)) return `${got} (not the error shape)`;
  const mentionsTarget = response.body.includes(seed.tag);
  switch (expectation) {
    case 'success': {
      if (!ok) return got;
      if (name === 'accounts.create' || name === 'accounts.delete') return changes.wholeChanged ? null : 'but nothing changed';
      if (name === 'users.retrieveKey' || (isWrite(name) && !name.endsWith('.update'))) {
        return changes.targetChanged ? null : "but the target account's rows did not change";
      }
      return mentionsTarget ? null : `but the answer does not show the target's objects: ${response.body.slice(0, 200)}`;
    }
    case 'forbidden':
      if (response.status !== 403) return got;
      return changes.wholeChanged ? 'but rows changed' : null;
    case 'not-found':
      if (response.status !== 404 && response.status !== 403) return got;
      return changes.wholeChanged ? 'but rows changed' : null;
    case 'bad-request':
      if (response.status !== 400) return got;
      return changes.wholeChanged ? 'but rows changed' : null;
    case 'isolated-list':
    case 'no-account-data':
      if (!ok) return got;
      return mentionsTarget ? `but the answer holds the target's objects: ${response.body.slice(0, 200)}` : null;
    case 'refused-reference':
      if (response.status < 400) return got;
      return changes.wholeChanged ? 'but rows changed' : null;
    case 'elsewhere':
      return changes.targetChanged ? `${got}, and the target account's rows changed` : null;
  }
}
