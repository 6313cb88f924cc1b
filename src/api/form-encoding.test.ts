import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  JsonBody,
  decodeForm,
  decodeJson,
  describeIssues,
  encodeForm,
  parseBody,
  parseForm,
  readFormBody,
} from './form-encoding.ts';
import { OPERATIONS } from './operations.ts';
import { AdministratorUpdate } from './schemas/administrator.ts';
import { ContactCreate, ContactQuery, ContactUpdate } from './schemas/contact.ts';
import { EmailUpdate } from './schemas/email.ts';
import { ListCreate, ListUpdate } from './schemas/list.ts';
import { MembershipCreate, MembershipUpdate } from './schemas/membership.ts';
import { arbitraryFor } from './test-support/zod-arbitrary.ts';

/**
 * Every schema a client encodes and the server decodes: each `body` and `query` of OPERATIONS,
 * read from the table so that a new operation is covered without touching this file. Schemas
 * shared by several operations (the empty query, AdministratorUpdate) are tested once.
 */
function inputSchemas(): Map<z.ZodMiniType, string[]> {
  const schemas = new Map<z.ZodMiniType, string[]>();
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    for (const part of ['body', 'query'] as const) {
      const schema = (operation as { body?: z.ZodMiniType; query?: z.ZodMiniType })[part];
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
function assertValid(schema: z.ZodMiniType, value: unknown): void {
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
/** The contacts query's generator alone takes seconds on a busy machine: more than vitest's 5 s. */
const PROPERTY_TIMEOUT_MS = 60_000;

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
          // A body is read the same way, with nothing left out.
          expect(parseBody(schema, readFormBody(form.toString()))).toStrictEqual({
            success: true,
            data: schema.parse(input),
            ignored: [],
          });
        }),
        { numRuns: NUM_RUNS },
      );
    }, PROPERTY_TIMEOUT_MS);
  }
});

describe('JSON bodies round trip: decodeJson(S, JSON of x) equals x', () => {
  for (const [schema, usedBy] of inputSchemas()) {
    it(`round-trips ${usedBy.join(', ')}`, () => {
      fc.assert(
        fc.property(arbitraryFor(schema), (value) => {
          const input = value as Record<string, unknown>;
          const fields = JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
          expect(decodeJson(schema, fields)).toStrictEqual(input);
          expect(parseBody(schema, new JsonBody(fields))).toStrictEqual({
            success: true,
            data: schema.parse(input),
            ignored: [],
          });
        }),
        { numRuns: NUM_RUNS },
      );
    }, PROPERTY_TIMEOUT_MS);
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

  it('reads booleans per spec §1 rule 4: "", "0" and "false" are false, "1" and other text are true', () => {
    const cases: [string, boolean][] = [
      ['', false],
      ['0', false],
      ['1', true],
      ['yes', true],
      // "most other non-empty strings mean true": not `false`, which real clients send (issue 16 §2)
      ['false', false],
      ['FALSE', false],
      ['true', true],
      ['True', true],
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
    const cases: [z.ZodMiniType, string][] = [
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

describe('request bodies as real clients send them (issue 16 §2, SECURITY.md 17)', () => {
  it('reads a body that was never percent-encoded: raw <, $, spaces, and + as a plus sign', () => {
    const raw = readFormBody('name=news&description=Price: 5$ <b>bold</b> & more&emails=ann+tag@example.org');
    expect(raw.get('description')).toBe('Price: 5$ <b>bold</b> ');
    expect(raw.get(' more')).toBe('');
    expect(raw.get('emails')).toBe('ann+tag@example.org');
    // Percent escapes still decode in such a body (a client that encoded some values).
    expect(readFormBody('notes=caf%C3%A9 au lait&x=a%2Bb').get('notes')).toBe('café au lait');
  });

  it('reads an encoded body as the form encoding says: + is a space', () => {
    expect(readFormBody('description=a+b%2Bc').get('description')).toBe('a b+c');
    expect(readFormBody(encodeForm({ description: 'x + y <z> $1' }).toString()).get('description')).toBe('x + y <z> $1');
  });

  it('ignores fields the schema does not list, and read-only ones, naming each; none reaches the data', () => {
    const parsed = parseBody(ListUpdate, readFormBody('description=x&subs_memberview=&id=3&created=2024-01-01&contacts=1&is_admin=1'));
    expect(parsed).toStrictEqual({
      success: true,
      data: { description: 'x' },
      ignored: ['subs_memberview', 'id', 'created', 'contacts', 'is_admin'],
    });
    expect(parseBody(EmailUpdate, readFormBody('confirmed=1&contact=9&paused=true'))).toStrictEqual({
      success: true,
      data: { paused: true },
      ignored: ['confirmed', 'contact'],
    });
  });

  it('ignores prototype names and __proto__ without crashing; custom contact fields stay for the service', () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      expect(parseBody(ListUpdate, readFormBody(`${key}=1`)), key).toStrictEqual({ success: true, data: {}, ignored: [key] });
    }
    const parsed = parseBody(ContactCreate, readFormBody('emails=a%40b.co&__proto__=x&id=4&created=now&favourite=blue'));
    expect(parsed).toStrictEqual({
      success: true,
      data: { emails: ['a@b.co'], favourite: 'blue' },
      ignored: ['__proto__', 'id', 'created'],
    });
    if (parsed.success) expect(Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
  });

  it('still refuses what it cannot take: a repeated single value, NUL in a kept field, an invalid value', () => {
    expect(parseBody(ListUpdate, readFormBody('zz=1&description=a&description=b'))).toStrictEqual({
      success: false,
      message: 'description: given more than once, but it takes one value',
      ignored: ['zz'],
    });
    expect(parseBody(ListUpdate, readFormBody('notes=a%00b'))).toMatchObject({ success: false, message: 'notes: contains the NUL character' });
    // A NUL in a field that is ignored anyway does not matter.
    expect(parseBody(ListUpdate, readFormBody('x%00y=1'))).toStrictEqual({ success: true, data: {}, ignored: ['x\0y'] });
    expect(parseBody(ListUpdate, readFormBody('maxlength=-1&zz=1'))).toMatchObject({ success: false, ignored: ['zz'] });
    expect(parseBody(ListCreate, readFormBody('description=x'))).toMatchObject({ success: false, message: 'name: is required' });
  });

  it('reads arrays sent as PHP and jQuery do: name[] and name[0]', () => {
    expect(parseBody(ContactUpdate, readFormBody('lists[]=a&lists[]=b&emails[0]=x%40example.org'))).toStrictEqual({
      success: true,
      data: { lists: ['a', 'b'], emails: ['x@example.org'] },
      ignored: [],
    });
    expect(parseBody(ListUpdate, readFormBody('taboo_body[1]=b&taboo_body[0]=a&description[]=x'))).toStrictEqual({
      success: true,
      data: { taboo_body: ['b', 'a'] },
      ignored: ['description[]'],
    });
  });

  it('reads JSON: booleans, numbers, null for nullable fields, arrays, and text as a form reads it', () => {
    const body = new JsonBody({
      name: 'news',
      strip_attachments: true,
      hold_replies: 'false',
      archive_enabled: 0,
      maxlength: 40,
      truncate: null,
      taboo_body: ['a', 'b'],
      restrict_post_lists: 'staff',
      subscriptions: 'open+confirm',
      reply_to: '',
    });
    expect(parseBody(ListCreate, body)).toStrictEqual({
      success: true,
      data: {
        name: 'news',
        strip_attachments: true,
        hold_replies: false,
        archive_enabled: false,
        maxlength: 40,
        truncate: null,
        taboo_body: ['a', 'b'],
        restrict_post_lists: ['staff'],
        subscriptions: 'open+confirm',
        reply_to: null,
      },
      ignored: [],
    });
    // A ccid or a custom field sent as a number means its digits; an id stays the service's number.
    expect(parseBody(ContactCreate, new JsonBody({ emails: ['a@b.co'], ccid: 42, age: 7 }))).toMatchObject({
      success: true,
      data: { emails: ['a@b.co'], ccid: '42', age: '7' },
    });
    expect(parseBody(MembershipCreate, new JsonBody({ contact: 42, list: 'l' }))).toMatchObject({ success: true, data: { contact: 42 } });
  });

  it('refuses JSON values a field cannot take, naming the field', () => {
    expect(parseBody(ListUpdate, new JsonBody({ description: { a: 1 } }))).toMatchObject({ success: false, message: /^description: / });
    expect(parseBody(ListUpdate, new JsonBody({ maxlength: true }))).toMatchObject({ success: false, message: /^maxlength: / });
    expect(parseBody(ListUpdate, new JsonBody({ notes: null }))).toMatchObject({ success: false, message: /^notes: / });
    expect(parseBody(ListUpdate, new JsonBody({ notes: 'a\u0000' }))).toMatchObject({ success: false, message: 'notes: contains the NUL character' });
  });

  it('reads a contact PUT back as read: email and membership objects stand for their address and list', () => {
    const read = {
      id: 7,
      ccid: null,
      firstname: 'Ann',
      created: '2024-01-01T00:00:00Z',
      emails: [{ id: 3, contact: 7, email: 'ann@example.org', digest: false, paused: false, confirmed: true, ceid: null }],
      lists: [{ id: 5, contact: 7, list: 'news', digest: null }],
    };
    expect(parseBody(ContactUpdate, new JsonBody(read))).toStrictEqual({
      success: true,
      data: { ccid: null, firstname: 'Ann', emails: ['ann@example.org'], lists: ['news'] },
      ignored: [
        'id',
        'created',
        'emails[].id',
        'emails[].contact',
        'emails[].digest',
        'emails[].paused',
        'emails[].confirmed',
        'emails[].ceid',
        'lists[].id',
        'lists[].contact',
        'lists[].digest',
      ],
    });
  });

  it('ignores unknown JSON fields whatever they hold', () => {
    expect(parseBody(ListUpdate, new JsonBody({ description: 'd', meta: { deep: [1, { x: null }] }, __proto__: 1 }))).toStrictEqual({
      success: true,
      data: { description: 'd' },
      ignored: ['meta'],
    });
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "description": "d"}') as Record<string, unknown>;
    expect(parseBody(ListUpdate, new JsonBody(withProto))).toStrictEqual({ success: true, data: { description: 'd' }, ignored: ['__proto__'] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
