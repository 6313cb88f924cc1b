import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { encodeForm } from '../../api/form-encoding.ts';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import { isReadOnlyMarker, shapeOf, writableKeys } from '../../api/test-support/zod-walk.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import { databaseSnapshot } from './db-snapshot.ts';
import { OPERATION_NAMES, prepareCall, seedAccount, urlOf, type AccountSeed } from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestResponse, type TestServer } from './harness.ts';

/**
 * SECURITY.md 17 (revised), mass assignment: every write of the contract's table, given a valid body
 * plus one read-only field of its schema or one field that is no API field at all (column names,
 * other resources' fields, privileges, prototype names), succeeds as it would without it; the field
 * is named in `X-Ignored-Fields` and never stored or applied: its value appears in no row of any
 * table, and the object's read-only fields keep the values they had. Real clients send such fields
 * (extra ones; objects PUT back as they were read), so they are ignored, not refused.
 */

/** Names a client might try: columns, other objects' fields, privileges, prototype members. */
const FOREIGN_FIELDS = [
  'id',
  'created',
  'confirmed',
  'account',
  'contacts',
  'api',
  'administrator_id',
  'password_hash',
  'key_hash',
  'search_text',
  'is_admin',
  'subs_memberview',
  'unknown_field',
  'constructor',
  '__proto__',
];

/** A value found nowhere in a fresh database, tempting as a number, a boolean and text alike. */
const SENTINEL = '987654321';

function bodyOf(name: OperationName): z.ZodMiniType | undefined {
  const operation = OPERATIONS[name];
  return 'body' in operation ? operation.body : undefined;
}

function readOnlyKeys(schema: z.ZodMiniType): string[] {
  return Object.entries(shapeOf(schema))
    .filter(([, field]) => isReadOnlyMarker(field))
    .map(([key]) => key);
}

/** The read-only fields the schema declares, then every foreign name it does not accept. */
function ignoredFields(schema: z.ZodMiniType): string[] {
  const writable = new Set(writableKeys(schema));
  return [...new Set([...readOnlyKeys(schema), ...FOREIGN_FIELDS.filter((field) => !writable.has(field))])];
}

/** The names of `X-Ignored-Fields` (percent-encoded where needed, separated by ", "). */
function ignoredNames(response: TestResponse): string[] {
  const header = response.headers['x-ignored-fields'];
  if (typeof header !== 'string') return [];
  return header.split(', ').map((name) => decodeURIComponent(name));
}

/** The operation that reads back what `name` writes to one object, if any. */
function readerOf(name: OperationName): OperationName | null {
  if (name === 'users.retrieveKey') return 'users.get';
  const reader = name.replace(/\.(update)$/, '.get');
  return reader !== name && reader in OPERATIONS ? (reader as OperationName) : null;
}

describeEachDialect('mass assignment (SECURITY.md 17)', (dialect) => {
  let server: TestServer;
  let seed: AccountSeed;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seed = await seedAccount(server, server.account.id, server.account.name);
    expect(await databaseSnapshot(server.database.db)).not.toContain(SENTINEL);
  });
  afterAll(() => server.close());

  const keyFor = (name: OperationName) => (ROUTE_PERMISSIONS[name].global ? server.globalKey : server.accountKey);

  async function send(name: OperationName, pathId: string | undefined, body: string, contentType: string) {
    return server.request(OPERATIONS[name].method, urlOf(name, pathId), { key: keyFor(name), body, contentType });
  }

  /** What a request with ignored fields must show: success, the fields named, nothing of them kept. */
  async function judge(
    name: OperationName,
    fields: string[],
    response: TestResponse,
    before: Record<string, unknown> | null,
  ): Promise<string | null> {
    const got = `${response.status} ${response.body.slice(0, 160)}`;
    if (response.status < 200 || response.status > 299) return got;
    const named = ignoredNames(response);
    const unnamed = fields.filter((field) => !named.includes(field));
    if (unnamed.length > 0) return `not named in X-Ignored-Fields (${named.join(', ')}): ${unnamed.join(', ')}`;
    if ((await databaseSnapshot(server.database.db)).includes(SENTINEL)) return `stored: ${got}`;
    const schema = bodyOf(name);
    const answer = response.json as Record<string, unknown>;
    for (const key of schema ? readOnlyKeys(schema) : []) {
      if (!(key in answer)) continue;
      // An update leaves the object's read-only fields as they were; a create never takes ours.
      if (before && JSON.stringify(answer[key]) !== JSON.stringify(before[key])) return `${key} changed: ${got}`;
      if ([Number(SENTINEL), SENTINEL, true].includes(answer[key] as never)) return `${key} applied: ${got}`;
    }
    return null;
  }

  for (const name of OPERATION_NAMES) {
    if (OPERATIONS[name].method === 'GET') continue;
    const schema = bodyOf(name);
    const fields = schema ? ignoredFields(schema) : FOREIGN_FIELDS;

    it(`${name}: ignores and names ${fields.join(', ')}, one at a time, as form fields`, async () => {
      const problems: string[] = [];
      for (const field of fields) {
        const { pathId, form } = await prepareCall(server, name, seed, true);
        const reader = readerOf(name);
        const before = reader
          ? ((await server.request('GET', urlOf(reader, pathId), { key: keyFor(name) })).json as Record<string, unknown>)
          : null;
        const body = encodeForm(form ?? {});
        body.append(field, SENTINEL);
        const response = await send(name, pathId, body.toString(), 'application/x-www-form-urlencoded');
        const problem = await judge(name, [field], response, before);
        if (problem) problems.push(`${field}: ${problem}`);
      }
      expect(problems).toEqual([]);
    });

    it(`${name}: ignores and names them all at once in a JSON body`, async () => {
      const { pathId, form } = await prepareCall(server, name, seed, true);
      const reader = readerOf(name);
      const before = reader
        ? ((await server.request('GET', urlOf(reader, pathId), { key: keyFor(name) })).json as Record<string, unknown>)
        : null;
      // Built as entries so that `__proto__` is an own key of the JSON object, as JSON.parse makes it.
      const json = Object.fromEntries([...Object.entries(form ?? {}), ...fields.map((field) => [field, Number(SENTINEL)])]) as object;
      const response = await send(name, pathId, JSON.stringify(json), 'application/json');
      expect(await judge(name, fields, response, before)).toBeNull();
    });
  }
});
