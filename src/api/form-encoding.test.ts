import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { decodeForm, describeIssues, encodeForm, parseForm } from './form-encoding.ts';
import { OPERATIONS } from './operations.ts';
import { AdministratorUpdate } from './schemas/administrator.ts';
import { ContactCreate, ContactQuery } from './schemas/contact.ts';
import { EmailUpdate } from './schemas/email.ts';
import { ListCreate, ListUpdate } from './schemas/list.ts';
import { MembershipCreate, MembershipUpdate } from './schemas/membership.ts';
import { arbitraryFor } from './test-support/zod-arbitrary.ts';

/**
 * Every schema a client encodes and the server decodes: each `body` and `query` of OPERATIONS,
 * read from the table so that a new operation is covered without touching this file. Schemas
 * shared by several operations (the empty query, AdministratorUpdate) are tested once.
 */
function inputSchemas(): Map<z.ZodType, string[]> {
  const schemas = new Map<z.ZodType, string[]>();
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    for (const part of ['body', 'query'] as const) {
      const schema = (operation as { body?: z.ZodType; query?: z.ZodType })[part];
      if (!schema) continue;
      schemas.set(schema, [...(schemas.get(schema) ?? []), `${name} ${part}`]);
    }
  }
  return schemas;
}

/** What the server receives: the encoded form, serialized and parsed again. */
function overTheWire(form: URLSearchParams): URLSearchParams {
  return new URLSearchParams(form.toString());
}

/** Fails with the schema's own words when the generator produced something the schema refuses. */
function assertValid(schema: z.ZodType, value: unknown): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `Generator produced an invalid value (${describeIssues(parsed.error.issues)}): ${JSON.stringify(value)}`,
    );
  }
}

// 17 distinct schemas × 150 runs keeps the whole file near a second while still reaching every
// optional/nullable combination of the large list schemas many times over.
const NUM_RUNS = 150;

describe('form encoding round trip (spec §1): decodeForm(S, encodeForm(x)) equals x', () => {
  const schemas = inputSchemas();

  it('finds the input schemas in OPERATIONS', () => {
    // Guards the iteration itself: a refactor that hid the schemas would make the loop below vacuous.
    expect(schemas.size).toBeGreaterThanOrEqual(15);
    const operationsWithBody = Object.values(OPERATIONS).filter((op) => 'body' in op).length;
    expect(operationsWithBody).toBeGreaterThanOrEqual(12);
  });

  for (const [schema, usedBy] of schemas) {
    it(`round-trips ${usedBy.join(', ')}`, () => {
      const arbitrary = arbitraryFor(schema);
      fc.assert(
        fc.property(arbitrary, (value) => {
          assertValid(schema, value);
          const input = value as Record<string, unknown>;
          const form = encodeForm(input);
          expect(decodeForm(schema, form)).toStrictEqual(input);
          expect(decodeForm(schema, overTheWire(form))).toStrictEqual(input);
          // The server's one-step path agrees: it accepts the form and yields what the schema yields.
          expect(parseForm(schema, overTheWire(form))).toStrictEqual({
            success: true,
            data: schema.parse(input),
          });
        }),
        { numRuns: NUM_RUNS },
      );
    });
  }
});

describe('form encoding: explicit cases', () => {
  const wire = (text: string) => new URLSearchParams(text);

  it('reads a canonical positive integer as a service id and any other id text as a custom id', () => {
    const decode = (contact: string) => decodeForm(MembershipCreate, wire(`contact=${contact}&list=l`)).contact;
    expect(decode('42')).toBe(42);
    // A ccid such as 0042 must reach the server as written (spec §2.1: it replaces the id).
    expect(decode('0042')).toBe('0042');
    expect(decode('-5')).toBe('-5');
    expect(decode('1.50')).toBe('1.50');
    expect(parseForm(MembershipCreate, wire('contact=0042&list=l')).success).toBe(true);
  });

  it('sends an empty array as the key once, empty, and reads it back as []', () => {
    const form = encodeForm({ taboo_headers: [] });
    expect(form.toString()).toBe('taboo_headers=');
    expect(decodeForm(ListUpdate, overTheWire(form))).toStrictEqual({ taboo_headers: [] });
  });

  it('sends a one-element array as one key and reads back an array, not a scalar', () => {
    const form = encodeForm({ taboo_headers: ['^X-Spam: yes'] });
    expect(form.toString()).toBe('taboo_headers=%5EX-Spam%3A+yes');
    expect(decodeForm(ListUpdate, overTheWire(form))).toStrictEqual({
      taboo_headers: ['^X-Spam: yes'],
    });
  });

  it('repeats the key once per array value (spec §1 rule 2)', () => {
    const form = encodeForm({ restrict_post_lists: ['a', 'b', 'c'] });
    expect(form.getAll('restrict_post_lists')).toEqual(['a', 'b', 'c']);
    expect(decodeForm(ListUpdate, form)).toStrictEqual({ restrict_post_lists: ['a', 'b', 'c'] });
  });

  it('reads booleans per spec §1 rule 4: "" and "0" are false, "1" and other text are true', () => {
    const cases: [string, boolean][] = [
      ['', false],
      ['0', false],
      ['1', true],
      ['yes', true],
      ['false', true], // "most other non-empty strings mean true": the spec's rule, surprising or not
    ];
    for (const [text, expected] of cases) {
      const parsed = parseForm(ListUpdate, wire(`strip_attachments=${text}`));
      expect(parsed, `strip_attachments=${text}`).toStrictEqual({
        success: true,
        data: { strip_attachments: expected },
      });
    }
  });

  it('sends booleans as 1 and 0', () => {
    expect(encodeForm({ a: true, b: false }).toString()).toBe('a=1&b=0');
  });

  it('reads the empty string as null for nullable fields', () => {
    const parsed = parseForm(
      ListUpdate,
      wire('reply_to=&subscriptions=&truncate=&message_rejections=&notify_approval='),
    );
    expect(parsed).toStrictEqual({
      success: true,
      data: {
        reply_to: null,
        subscriptions: null,
        truncate: null,
        message_rejections: null,
        notify_approval: null,
      },
    });
    // The three-state membership digest: null keeps the address's own setting (spec §2.3).
    expect(parseForm(MembershipUpdate, wire('digest='))).toStrictEqual({
      success: true,
      data: { digest: null },
    });
    expect(encodeForm({ digest: null }).toString()).toBe('digest=');
  });

  it('keeps the empty string for a non-nullable text field (memberview "" disables it)', () => {
    expect(parseForm(ListUpdate, wire('memberview=&description='))).toStrictEqual({
      success: true,
      data: { memberview: '', description: '' },
    });
  });

  it('reads a flag with no value as true (orphans, get_key)', () => {
    expect(parseForm(ContactQuery, wire('orphans'))).toStrictEqual({
      success: true,
      data: { orphans: true },
    });
    expect(parseForm(ContactQuery, wire('orphans='))).toStrictEqual({
      success: true,
      data: { orphans: true },
    });
    expect(parseForm(AdministratorUpdate, wire('get_key'))).toStrictEqual({
      success: true,
      data: { get_key: true },
    });
    expect(parseForm(AdministratorUpdate, wire('get_key&expiry_months=6'))).toStrictEqual({
      success: true,
      data: { get_key: true, expiry_months: 6 },
    });
  });

  it('refuses a repeated key for a single-valued field, naming the field', () => {
    const parsed = parseForm(ListUpdate, wire('description=a&description=b'));
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.message).toMatch(/^description: /);
  });

  it('refuses __proto__ even where custom fields are allowed, and NUL characters anywhere', () => {
    expect(parseForm(ContactCreate, wire('emails=a@b.co&__proto__=x'))).toEqual({
      success: false,
      message: 'Unknown field: __proto__',
    });
    expect(parseForm(ContactCreate, wire('emails=a@b.co&notes=a%00b'))).toEqual({
      success: false,
      message: 'notes: contains the NUL character',
    });
  });

  it('refuses unknown fields (no mass assignment)', () => {
    const parsed = parseForm(ListUpdate, wire('description=x&is_admin=1'));
    expect(parsed).toStrictEqual({ success: false, message: 'Unknown field: is_admin' });
  });

  it('refuses a field named after an Object.prototype member as unknown, without crashing', () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      expect(parseForm(ListUpdate, wire(`${key}=1`)), key).toStrictEqual({
        success: false,
        message: `Unknown field: ${key}`,
      });
    }
  });

  it('keeps custom contact fields, including ones named like Object.prototype members', () => {
    const input = { emails: ['a@example.org'], favourite_colour: 'blue', constructor: 'x' };
    expect(decodeForm(ContactCreate, overTheWire(encodeForm(input)))).toStrictEqual(input);
  });

  it('refuses read-only fields with "is read-only"', () => {
    const cases: [z.ZodType, string][] = [
      [ListUpdate, 'id=3'],
      [ListUpdate, 'created=2024-01-01'],
      [ListCreate, 'name=a&id=3'],
      [EmailUpdate, 'confirmed=1'],
      [ContactCreate, 'emails=a%40example.org&created=yesterday'],
    ];
    for (const [schema, text] of cases) {
      const parsed = parseForm(schema, wire(text));
      expect(parsed.success, text).toBe(false);
      if (!parsed.success)
        expect(parsed.message, text).toMatch(/^(id|created|confirmed): is read-only/);
    }
  });

  it('explains read-only fields that have a better way', () => {
    const parsed = parseForm(ListUpdate, wire('contacts=1'));
    expect(parsed).toStrictEqual({
      success: false,
      message: 'contacts: is read-only: add members through /membership/',
    });
  });

  it('names a missing required field', () => {
    expect(parseForm(ListCreate, wire('description=x'))).toStrictEqual({
      success: false,
      message: 'name: is required',
    });
  });

  it('leaves undefined values out of the form', () => {
    expect(encodeForm({ a: undefined, b: 'x' }).toString()).toBe('b=x');
  });

  it('accepts a record source with repeated values as arrays', () => {
    expect(
      decodeForm(ListUpdate, { restrict_post_lists: ['a', 'b'], description: 'd' }),
    ).toStrictEqual({
      restrict_post_lists: ['a', 'b'],
      description: 'd',
    });
  });

  it('refuses to encode values the form cannot carry', () => {
    expect(() => encodeForm({ nested: { a: 1 } })).toThrow(TypeError);
  });
});
