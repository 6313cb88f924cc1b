import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ACCOUNT_ID_PARAM } from '../../api/constants.ts';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import { shapeOf } from '../../api/test-support/zod-walk.ts';
import { ROUTE_PERMISSIONS } from '../auth/route-permissions.ts';
import {
  OPERATION_NAMES,
  isErrorShape,
  prepareCall,
  seedAccount,
  takesPathId,
  type AccountSeed,
} from './fixtures.ts';
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts';

/**
 * SECURITY.md 21: random form and JSON bodies, queries and path segments on every operation of the contract
 * never yield a 500, always a JSON body, and every error is exactly `{is_error: true, message}`.
 * Keys are drawn from the operation's schema and from junk, values from the seeded objects, from
 * edge cases (empty, huge, NUL, numbers that are not ids) and from random Unicode; keys repeat.
 * Deterministic: a fixed seed and a fixed number of runs per operation.
 */

const SEED = 20_261_121;
const RUNS = 30;

type Entries = [string, string][];

/**
 * One generated request. The valid parts (the object's path segment, a valid body) are made at run
 * time by prepareCall, so creates get unique names and deletes a fresh object on every run.
 */
interface FuzzRequest {
  /** `valid`: the prepared object's segment; otherwise text, encoded unless `raw`. */
  pathId: { kind: 'valid' } | { kind: 'text'; raw: boolean; text: string } | null;
  query: Entries;
  body:
    | { kind: 'random'; entries: Entries }
    | { kind: 'valid-plus'; entries: Entries }
    | { kind: 'valid-replaced'; index: number; value: string };
  /** How the body travels: urlencoded, multipart, or JSON (issue 16 §2: real clients send JSON). */
  encoding: 'urlencoded' | 'multipart' | 'json';
  globalWithAccount: boolean;
}

const JUNK_KEYS = ['', ' ', 'a[b]', 'a.b', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ACCOUNT_ID_PARAM, 'id', 'x'.repeat(300)];
const EDGE_VALUES = [
  '',
  ' ',
  '0',
  '1',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  'true',
  'null',
  'undefined',
  '9'.repeat(40),
  String(Number.MAX_SAFE_INTEGER + 2),
  '\u0000',
  'a\u0000b',
  '\uD800',
  '%',
  '%00',
  "'; drop table contacts; --",
  '%_\\',
  '<script>alert(1)</script>',
  'ünïcødé 👩‍👩‍👧 עברית',
  'a@b',
  'user@example.com',
  '.*',
  '(',
  'open+confirm',
];
const RAW_PATH_IDS = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%00', 'a%00b', '..', '.', '%2e%2e', '?', '#', '%2F', ';', '*'];

function schemaKeys(schema: z.ZodMiniType | undefined): string[] {
  return schema ? Object.keys(shapeOf(schema)) : [];
}

function entriesArbitrary(keys: string[], values: fc.Arbitrary<string>): fc.Arbitrary<Entries> {
  const key = fc.oneof(
    { weight: 6, arbitrary: keys.length > 0 ? fc.constantFrom(...keys) : fc.constantFrom(...JUNK_KEYS) },
    { weight: 1, arbitrary: fc.constantFrom(...JUNK_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  return fc.array(fc.tuple(key, values), { maxLength: 8 });
}

function valueArbitrary(seed: AccountSeed): fc.Arbitrary<string> {
  const known = [seed.contactId, seed.emailId, seed.email, seed.membershipId, seed.list, seed.messageId, seed.userId, seed.username, String(seed.accountId)];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: fc.constantFrom(...EDGE_VALUES) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.emailAddress() },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
  );
}

function requestArbitrary(name: OperationName, seed: AccountSeed): fc.Arbitrary<FuzzRequest> {
  const operation = OPERATIONS[name];
  const values = valueArbitrary(seed);
  const pathId: fc.Arbitrary<FuzzRequest['pathId']> = takesPathId(name)
    ? fc.oneof(
        // The real object most of the time, so that the body's rules run too.
        { weight: 3, arbitrary: fc.constant({ kind: 'valid' as const }) },
        { weight: 3, arbitrary: values.map((text) => ({ kind: 'text' as const, raw: false, text })) },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_IDS).map((text) => ({ kind: 'text' as const, raw: true, text })) },
      )
    : fc.constant(null);
  const queryKeys = 'query' in operation ? schemaKeys(operation.query) : [];
  const bodyKeys = 'body' in operation ? schemaKeys(operation.body) : [];
  const none = fc.constant([] as Entries);
  const query = fc.oneof({ weight: 3, arbitrary: none }, { weight: 2, arbitrary: entriesArbitrary(queryKeys, values) });
  const random = (entries: fc.Arbitrary<Entries>) => entries.map((e) => ({ kind: 'random' as const, entries: e }));
  const body: fc.Arbitrary<FuzzRequest['body']> =
    'body' in operation
      ? fc.oneof(
          { weight: 2, arbitrary: random(entriesArbitrary(bodyKeys, values)) },
          // A valid body with a few fields of the schema added (repeated keys included).
          {
            weight: 3,
            arbitrary: fc
              .array(fc.tuple(fc.constantFrom(...bodyKeys), values), { maxLength: 3 })
              .map((entries) => ({ kind: 'valid-plus' as const, entries })),
          },
          // A valid body with one of its values replaced.
          {
            weight: 2,
            arbitrary: fc.tuple(fc.nat(), values).map(([index, value]) => ({ kind: 'valid-replaced' as const, index, value })),
          },
        )
      : fc.oneof({ weight: 4, arbitrary: random(none) }, { weight: 1, arbitrary: random(entriesArbitrary([], values)) });
  return fc.record({
    pathId,
    query,
    body: operation.method === 'GET' ? random(none) : body,
    encoding: fc.constantFrom('urlencoded', 'multipart', 'json'),
    globalWithAccount: fc.boolean(),
  });
}

function formEntries(form: Record<string, unknown> | undefined): Entries {
  return Object.entries(form ?? {}).flatMap(([key, value]): Entries =>
    Array.isArray(value) ? value.map((item) => [key, String(item)]) : [[key, String(value)]],
  );
}

function bodyEntries(body: FuzzRequest['body'], valid: Entries): Entries {
  switch (body.kind) {
    case 'random':
      return body.entries;
    case 'valid-plus':
      return [...valid, ...body.entries];
    case 'valid-replaced':
      return valid.map(([key, old], i): [string, string] => [key, i === body.index % Math.max(1, valid.length) ? body.value : old]);
  }
}

/**
 * The entries as a JSON object: a repeated key becomes an array, and text that reads as a number, a
 * boolean or null sometimes travels as one, as JSON clients send them.
 */
function jsonBody(entries: Entries): string {
  const fields = new Map<string, unknown[]>();
  for (const [key, value] of entries) fields.set(key, [...(fields.get(key) ?? []), asJsonValue(value)]);
  return JSON.stringify(Object.fromEntries([...fields].map(([key, values]) => [key, values.length === 1 ? values[0] : values])));
}

function asJsonValue(text: string): unknown {
  if (text === 'true' || text === 'null') return JSON.parse(text) as unknown;
  if (/^-?\d{1,15}$/.test(text) && text.length % 2 === 0) return Number(text);
  return text;
}

function multipartBody(entries: Entries, boundary: string): string {
  const quote = (text: string) => text.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
  const parts = entries.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`);
  return `${parts.join('')}--${boundary}--\r\n`;
}

describeEachDialect('fuzzing every operation (SECURITY.md 21)', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  OPERATION_NAMES.forEach((name, index) => {
    it(`${name}: never a 500, always JSON, errors in the spec's shape`, async () => {
      const operation = OPERATIONS[name];
      const global = ROUTE_PERMISSIONS[name].global === true;
      // An account of its own per operation: what one operation's fuzzing breaks, another never sees.
      const account = await server.createAccount(`fuzz${index}`);
      const key = await server.createKey({ accountId: account.id, permissions: ['superadmin'] });
      const seed = await seedAccount(server, account.id, account.name);
      const initial = await prepareCall(server, name, seed);
      await fc.assert(
        fc.asyncProperty(requestArbitrary(name, seed), async (input) => {
          // A fresh object and unique names each run; once the fuzzing has broken the seed, the first call's.
          const prepared = await prepareCall(server, name, seed, true).catch(() => initial);
          let segment = '';
          if (input.pathId?.kind === 'valid') segment = encodeURIComponent(prepared.pathId ?? '');
          else if (input.pathId) segment = input.pathId.raw ? input.pathId.text : encodeURIComponent(input.pathId.text);
          // A query the operation needs (the image proxy's url) comes first; the fuzzed entries follow.
          const query = new URLSearchParams([...formEntries(prepared.query), ...input.query]);
          const useGlobal = global || input.globalWithAccount;
          if (!global && useGlobal) query.append(ACCOUNT_ID_PARAM, String(seed.accountId));
          const search = query.toString();
          const url = `/api/2${operation.path.replace(/:(id|name)/, segment)}${search ? `?${search}` : ''}`;
          const entries = bodyEntries(input.body, formEntries(prepared.form));
          const boundary = 'fuzzb0undary';
          const response = await server.request(operation.method, url, {
            key: useGlobal ? server.globalKey : key,
            ...(operation.method === 'GET'
              ? {}
              : input.encoding === 'multipart'
                ? { body: multipartBody(entries, boundary), contentType: `multipart/form-data; boundary=${boundary}` }
                : input.encoding === 'json'
                  ? { body: jsonBody(entries), contentType: 'application/json' }
                  : { body: new URLSearchParams(entries).toString(), contentType: 'application/x-www-form-urlencoded' }),
          });
          const what = `${operation.method} ${url.slice(0, 200)} → ${response.status} ${response.body.slice(0, 300)}`;
          expect(response.status, what).toBeLessThan(500);
          expect(response.json, `not JSON: ${what}`).toBeTypeOf('object');
          if (response.status >= 400) expect(isErrorShape(response.json), what).toBe(true);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  });
});
