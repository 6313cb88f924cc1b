import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  ACCOUNT_NOTIFY_APPROVAL_VALUES,
  EXPIRY_MONTHS,
  LIST_NOTIFY_APPROVAL_VALUES,
  MEMBERVIEW_VALUES,
  MESSAGE_REJECTIONS_VALUES,
  MFA_TYPES,
  MODERATE,
  NAME_MAX_LENGTH,
  NOTIFICATIONS,
  PAGE_LIMITS,
  PERMISSIONS,
  SUBSCRIPTION_MODES,
} from './constants.ts';
import { OPERATIONS, type Operation } from './operations.ts';
import { AccountUpdate } from './schemas/account.ts';
import { ListUpdate } from './schemas/list.ts';
import { CONTACT_QUERY_EXTENSIONS } from './schemas/contact.ts';
import { LIST_QUERY_EXTENSIONS } from './schemas/list.ts';
import {
  SPEC_PATH,
  fieldNamesOf,
  parseTables,
  readSpec,
  within,
  type SpecTable,
} from './test-support/spec-markdown.ts';
import { defOf, isReadOnlyMarker, shapeOf, unwrapOptional } from './test-support/zod-walk.ts';

/**
 * The contract against the spec itself (shared/spec/mailing-list-api-v2.md), read at test time:
 * every field of §2.1–2.7 and every operation of §4.1–4.7 must exist in src/api, and the value
 * tables must equal the constants. Removing a field or an operation from the contract, or adding
 * one to the spec, fails here.
 *
 * Where the contract deliberately departs from a literal reading of the spec, the departure is
 * listed below with its reason, so that it is a decision on record rather than a silent gap.
 */

/**
 * Fields the spec describes but that no answer carries. Fields the spec itself calls write-only
 * or create-only are found from its text; these are the contract's own reading.
 */
const NOT_RETURNED: Record<string, Record<string, string>> = {
  '2.6': {
    password: 'a secret: written (version 1, and the reference server login), never read back',
    can_write:
      'version 1 only (§9 rule 3): refused on write with a pointer to permissions, never returned',
    welcome_email: 'an instruction to send an email at creation, not a stored property',
  },
  '2.7': {
    administrator:
      'the initial administrator, given at creation; afterwards the account answers `users`',
  },
};

/**
 * Fields the spec does not call read-only but the contract refuses on write (read-only markers):
 * identifiers and values the service assigns, and relations changed through another resource.
 */
const SERVICE_ASSIGNED: Record<string, Record<string, string>> = {
  '*': { id: 'service identifier, assigned by the service' },
  '2.4': { contacts: 'members are added and removed through /membership/ (§4.3)' },
  '2.5': {
    time: 'send time, set by the service',
    message_id: 'Message-ID, set by the service',
    thread_id: 'thread, assigned by the service',
  },
  '2.6': {
    api: 'the API version of an administrator is fixed by how it was made',
    authn_provider: 'set by single sign-on, not by the API',
    can_write: 'version 1 only (§9 rule 3)',
  },
};

/** Operations whose query schema accepts parameters the spec does not list for that row. */
const QUERY_EXTENSIONS: Record<string, string> = {
  'contacts.list': CONTACT_QUERY_EXTENSIONS.list,
  'lists.list': LIST_QUERY_EXTENSIONS.contacts,
  'lists.get': LIST_QUERY_EXTENSIONS.contacts,
  'accounts.list':
    '§4.7 lists page/limit/listname/username/description under "Get one", where paging makes no sense; the contract accepts them on "Get all" too',
};

const specFile = readSpec();

describe('spec reader', () => {
  it('explains a missing spec instead of failing obscurely', () => {
    const missing = readSpec('/nonexistent/mailing-list-api-v2.md');
    expect(missing).toEqual({
      ok: false,
      message: expect.stringContaining('The API spec is missing') as unknown,
    });
  });
});

if (!specFile.ok) {
  describe('spec coverage', () => {
    it('reads the spec', () => {
      expect.fail(specFile.message);
    });
  });
} else {
  const tables = parseTables(specFile.text);
  const text = specFile.text;
  defineCoverage(tables, text);
}

type Entry = [name: string, operation: Operation];

function operationsOf(section: string): Entry[] {
  return (Object.entries(OPERATIONS) as Entry[]).filter(
    ([, operation]) => operation.section === section,
  );
}

/** The object schema an answer's items have: pages and collections unwrapped. */
function itemSchema(response: z.ZodMiniType): z.ZodMiniType | undefined {
  let schema = unwrapOptional(response).schema;
  if (defOf(schema).type === 'array') schema = defOf(schema).element as z.ZodMiniType;
  const shape = defOf(schema).shape;
  if (!shape) return undefined;
  const data = shape.data && defOf(unwrapOptional(shape.data).schema);
  if (data?.type === 'array' && 'count' in shape) return itemSchema(data.element as z.ZodMiniType);
  return schema;
}

function defineCoverage(tables: SpecTable[], text: string) {
  const fieldTables = tables.filter((t) => within(t.section, '2', 1, 7) && t.header[0] === 'Field');
  const operationTables = tables.filter(
    (t) => within(t.section, '4', 1, 7) && t.header[0] === 'Operation',
  );

  describe(`spec coverage (${SPEC_PATH})`, () => {
    it('finds the field tables of §2.1–2.7 and the operation tables of §4.1–4.7', () => {
      // Guards the parser: a reformatted spec must not make every check below vacuous.
      expect(new Set(fieldTables.map((t) => t.section))).toEqual(
        new Set(['2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7']),
      );
      expect(new Set(operationTables.map((t) => t.section))).toEqual(
        new Set(['4.1', '4.2', '4.3', '4.4', '4.5', '4.6', '4.7']),
      );
      expect(fieldTables.flatMap((t) => t.rows).length).toBeGreaterThan(100);
    });

    const sections = [...new Set(fieldTables.map((t) => t.section))];
    for (const section of sections) {
      const operationSection = `4.${section.split('.')[1]}`;
      const operations = operationsOf(operationSection);
      const reads = operations
        .map(([, op]) => itemSchema(op.response))
        .filter((s) => s !== undefined);
      const writes = operations
        .filter(([, op]) => op.body)
        .map(([name, op]) => ({ name, method: op.method, schema: op.body as z.ZodMiniType }));
      const readKeys = new Set(reads.flatMap((schema) => Object.keys(shapeOf(schema))));
      const rows = fieldTables
        .filter((t) => t.section === section)
        .flatMap((t) => t.rows)
        .flatMap(([cell = '', meaning = '']) =>
          fieldNamesOf(cell).map((field) => ({ field, meaning })),
        );

      describe(`§${section} fields (read and written through §${operationSection})`, () => {
        it('has operations with read and write schemas to compare', () => {
          expect(reads.length).toBeGreaterThan(0);
          expect(writes.length).toBeGreaterThan(0);
        });

        for (const { field, meaning } of rows) {
          const readOnly = /\(read[- ]only\)/i.test(meaning);
          const writeOnly = /write-only/i.test(meaning);
          const createOnly = /create requests only/i.test(meaning);
          const notReturned = writeOnly || createOnly || Boolean(NOT_RETURNED[section]?.[field]);
          const assigned = Boolean(
            SERVICE_ASSIGNED['*']?.[field] ?? SERVICE_ASSIGNED[section]?.[field],
          );

          it(`${field}`, () => {
            // Every field the spec names is known to every way of writing it: a client that sends
            // it gets a field-specific answer ("is read-only", a value rule), never "Unknown field".
            const knownTo = writes.filter((w) => Object.hasOwn(shapeOf(w.schema), field));
            expect(
              knownTo.map((w) => w.name),
              `${field}: known to a write schema of §${operationSection}`,
            ).not.toEqual([]);
            const writableIn = knownTo.filter(
              (w) => !isReadOnlyMarker(shapeOf(w.schema)[field] as z.ZodMiniType),
            );

            if (notReturned) {
              expect(
                readKeys.has(field),
                `${field}: never returned, so absent from the read schema`,
              ).toBe(false);
            } else {
              expect(readKeys.has(field), `${field}: in the read schema of §${section}`).toBe(true);
            }

            if (readOnly || assigned) {
              expect(
                writableIn.map((w) => w.name),
                `${field}: read-only, refused by every write schema`,
              ).toEqual([]);
            } else {
              expect(
                writableIn.map((w) => w.name),
                `${field}: writable through some operation`,
              ).not.toEqual([]);
            }

            if (createOnly) {
              expect(
                writableIn.map((w) => w.method),
                `${field}: writable on create only`,
              ).toEqual(['POST']);
            }
          });
        }
      });
    }

    it('lists no exception for a field the spec does not have', () => {
      const specFields = new Map<string, Set<string>>();
      for (const table of fieldTables) {
        const set = specFields.get(table.section) ?? new Set<string>();
        for (const [cell = ''] of table.rows)
          for (const field of fieldNamesOf(cell)) set.add(field);
        specFields.set(table.section, set);
      }
      const all = new Set([...specFields.values()].flatMap((set) => [...set]));
      for (const exceptions of [NOT_RETURNED, SERVICE_ASSIGNED]) {
        for (const [section, fields] of Object.entries(exceptions)) {
          for (const field of Object.keys(fields)) {
            const known = section === '*' ? all : specFields.get(section);
            expect(known?.has(field), `exception for ${section} ${field}`).toBe(true);
          }
        }
      }
    });

    describe('operations of §4.1–4.7', () => {
      for (const table of operationTables) {
        const methodColumn = table.header.indexOf('Method and path');
        const inputColumn = table.header.indexOf('Input');
        const specRows = table.rows.map((row) => {
          const match = /^(GET|POST|PUT|DELETE)\s+(\/\S*)$/.exec(row[methodColumn] ?? '');
          return {
            title: row[0] ?? '',
            method: match?.[1],
            path: match?.[2],
            input: row[inputColumn] ?? '',
          };
        });

        it(`§${table.section}: the same methods and paths as OPERATIONS`, () => {
          expect(methodColumn, 'a "Method and path" column').toBeGreaterThanOrEqual(0);
          for (const row of specRows)
            expect(row.method, `method and path of "${row.title}"`).toBeDefined();
          // Compared as multisets: §4.6 has two PUT /users/:id/ rows (update and key retrieval).
          const fromSpec = specRows.map((row) => `${row.method} ${row.path}`).sort();
          const fromContract = operationsOf(table.section)
            .map(([, op]) => `${op.method} ${op.path}`)
            .sort();
          expect(fromContract).toEqual(fromSpec);
        });

        for (const row of specRows) {
          const query = /^Query, all optional:\s*(.*)$/i.exec(row.input);
          const none = /^(none\b|no query parameters)/i.test(row.input);
          if (!query && !(none && row.method === 'GET')) continue;

          it(`§${table.section} ${row.method} ${row.path}: query parameters as listed`, () => {
            const matches = operationsOf(table.section).filter(
              ([, op]) => op.method === row.method && op.path === row.path,
            );
            expect(matches).toHaveLength(1);
            const [name, operation] = matches[0] as Entry;
            const keys = operation.query ? Object.keys(shapeOf(operation.query)) : [];
            if (query) {
              // "page; limit (default 100, maximum 1000); search (…)" → page, limit, search
              const listed = (query[1] ?? '')
                .split(';')
                .map((part) => /^\s*([a-z_]+)/.exec(part)?.[1]);
              for (const parameter of listed) expect(keys, `${name} query`).toContain(parameter);
              if (!QUERY_EXTENSIONS[name]) expect(keys.sort()).toEqual([...listed].sort());
              const limit = /limit \(default (\d+), maximum (\d+)\)/.exec(query[1] ?? '');
              if (limit && operation.query) {
                const max = Number(limit[2]);
                expect(
                  operation.query.safeParse({ limit: max }).success,
                  `${name}: limit=${max}`,
                ).toBe(true);
                expect(
                  operation.query.safeParse({ limit: max + 1 }).success,
                  `${name}: limit=${max + 1}`,
                ).toBe(false);
              }
            } else if (!QUERY_EXTENSIONS[name]) {
              expect(keys, `${name}: takes no query parameters`).toEqual([]);
            }
          });
        }
      }

      it('§4.6 key retrieval is users.retrieveKey: PUT /users/:id/ with get_key and expiry_months', () => {
        const operation = OPERATIONS['users.retrieveKey'];
        expect([operation.method, operation.path]).toEqual(['PUT', '/users/:id/']);
        expect(Object.keys(shapeOf(operation.body))).toEqual(
          expect.arrayContaining(['get_key', 'expiry_months']),
        );
        expect(Object.keys(shapeOf(operation.response))).toContain('key');
      });

      it('every other operation is a marked extension, on a path no spec operation uses', () => {
        const specSections = new Set(operationTables.map((t) => t.section));
        const specPaths = new Set(
          Object.values(OPERATIONS as Record<string, Operation>)
            .filter((op) => op.section !== undefined)
            .map((op) => op.path),
        );
        for (const [name, operation] of Object.entries(OPERATIONS as Record<string, Operation>)) {
          // An entry has a section or an extension reason, never both (the Operation type).
          if (operation.section !== undefined) {
            expect(specSections, name).toContain(operation.section);
            continue;
          }
          expect(operation.extension, `${name}: says why it exists (its \`extension\`)`).toMatch(
            /\w{10}/,
          );
          expect(specPaths.has(operation.path), `${name}: ${operation.path} is a spec path`).toBe(
            false,
          );
        }
      });

      it('every path ends with a slash (spec §1 rule 1)', () => {
        for (const [name, operation] of Object.entries(OPERATIONS))
          expect(operation.path, name).toMatch(/^\/.*\/$/);
      });
    });

    describe('value tables and enumerations', () => {
      /** The value column of the table whose caption names `field`. */
      function valuesOf(field: string): unknown[] {
        const table = tables.find(
          (t) => t.header[0] === 'Value' && t.caption.startsWith(`\`${field}\``),
        );
        if (!table) throw new Error(`No value table captioned \`${field}\` in the spec`);
        return table.rows.map(([cell = '']) =>
          cell === 'null' ? null : /^\d+$/.test(cell) ? Number(cell) : cell,
        );
      }
      const sorted = (values: readonly unknown[]) =>
        [...values].sort((a, b) => String(a).localeCompare(String(b)));
      /** The sentence of the spec that matches `pattern`; fails clearly when the wording changed. */
      function sentence(pattern: RegExp): string {
        const match = pattern.exec(text);
        if (!match) throw new Error(`The spec no longer contains ${pattern}`);
        return match[1] ?? '';
      }

      it('moderate bits (§2.4) equal MODERATE', () => {
        expect(sorted(valuesOf('moderate'))).toEqual(sorted(Object.values(MODERATE)));
      });

      it('message_rejections (§2.4) equal null plus MESSAGE_REJECTIONS_VALUES, and the list schema accepts each', () => {
        const values = valuesOf('message_rejections');
        expect(sorted(values)).toEqual(sorted([null, ...MESSAGE_REJECTIONS_VALUES]));
        for (const value of values)
          expect(ListUpdate.safeParse({ message_rejections: value }).success).toBe(true);
      });

      it('notifications (§2.6) equal NOTIFICATIONS', () => {
        expect(sorted(valuesOf('notifications'))).toEqual(sorted(NOTIFICATIONS));
      });

      it('permissions (§2.6) equal PERMISSIONS', () => {
        expect(sorted(valuesOf('permissions'))).toEqual(sorted(PERMISSIONS));
      });

      it('list notify_approval (§2.4) equals null plus LIST_NOTIFY_APPROVAL_VALUES', () => {
        const values = [
          ...sentence(/List `notify_approval` values: (.*)$/m).matchAll(/(null|\d+) = /g),
        ].map((m) => (m[1] === 'null' ? null : Number(m[1])));
        expect(sorted(values)).toEqual(sorted([null, ...LIST_NOTIFY_APPROVAL_VALUES]));
        for (const value of values)
          expect(ListUpdate.safeParse({ notify_approval: value }).success).toBe(true);
      });

      it('account notify_approval (§2.7) equals ACCOUNT_NOTIFY_APPROVAL_VALUES', () => {
        const values = [
          ...sentence(/^\| notify_approval \| (0 = .*) \|$/m).matchAll(/(\d+) = /g),
        ].map((m) => Number(m[1]));
        expect(sorted(values)).toEqual(sorted(ACCOUNT_NOTIFY_APPROVAL_VALUES));
        for (const value of values)
          expect(AccountUpdate.safeParse({ notify_approval: value }).success).toBe(true);
      });

      it('memberview (§2.4) equals MEMBERVIEW_VALUES ("" disables it)', () => {
        const listed = sentence(/One of ([a-z, -]+), or the empty string to disable/).split(/,\s*/);
        expect(sorted(['', ...listed])).toEqual(sorted(MEMBERVIEW_VALUES));
      });

      it('subscriptions (§2.4, §2.7) equal SUBSCRIPTION_MODES', () => {
        const list = sentence(/^\| subscriptions \| (open .*null to use the account setting) \|$/m);
        expect([...list.matchAll(/([a-z+]+) \(/g)].map((m) => m[1])).toEqual([
          ...SUBSCRIPTION_MODES,
        ]);
        const account = sentence(
          /^\| subscriptions \| Default for lists \(a list may override\): (.*) \|$/m,
        );
        expect(account.split(/,\s*(?:or\s+)?/)).toEqual([...SUBSCRIPTION_MODES]);
      });

      it('mfa_type (§2.6) equals MFA_TYPES (undefined: none)', () => {
        expect(sentence(/Multi-factor type: (.*), or undefined/).split(/,\s*/)).toEqual([
          ...MFA_TYPES,
        ]);
      });

      it('limits (§8) equal PAGE_LIMITS, NAME_MAX_LENGTH and EXPIRY_MONTHS', () => {
        const limits = tables.find((t) => t.section === '8' && t.header[0] === 'Limit');
        expect(limits, 'the §8 limits table').toBeDefined();
        const row = (label: string) => limits?.rows.find(([cell]) => cell === label)?.[1] ?? '';
        const page = (label: string) =>
          /default (\d+), maximum (\d+)/.exec(row(label))?.slice(1).map(Number);
        expect(page('Contacts per page (limit)')).toEqual([
          PAGE_LIMITS.contacts.default,
          PAGE_LIMITS.contacts.max,
        ]);
        expect(page('Accounts per page (limit)')).toEqual([
          PAGE_LIMITS.accounts.default,
          PAGE_LIMITS.accounts.max,
        ]);
        expect(page('Messages per page (limit)')).toEqual([
          PAGE_LIMITS.messages.default,
          PAGE_LIMITS.messages.max,
        ]);
        expect(Number(/at most (\d+) characters/.exec(row('List name'))?.[1])).toBe(
          NAME_MAX_LENGTH,
        );
        expect(row('expiry_months for key retrieval').match(/\d+/g)?.map(Number)).toEqual([
          ...EXPIRY_MONTHS,
        ]);
      });
    });
  });
}
