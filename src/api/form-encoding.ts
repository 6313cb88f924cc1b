import * as z from 'zod/mini';

/**
 * Spec §1: request bodies (and queries) are form fields. This module is the one implementation of
 * that encoding: the client encodes with it, the server decodes with it, and a property test proves
 * that decoding an encoded input gives the input back.
 *
 * - arrays: one repeated key per value (rule 2); an empty array is the key sent once, empty;
 * - booleans: sent as 1 or 0; read as false for "", "0" and "false", true for any other string
 *   (rule 4: "most other non-empty strings mean true"; real clients send true and false);
 * - null (for a nullable field): sent as the empty string;
 * - flags (`orphans`, `get_key`): a key with no value means true.
 *
 * Request bodies are read more loosely than the client writes them, as real integrations send them
 * (parseBody): a urlencoded body that was never percent-encoded (readFormBody), a JSON object with
 * the same fields (JsonBody), and fields no schema lists, which are ignored and named, never stored.
 */

export type FormSource =
  | URLSearchParams
  | Iterable<readonly [string, string]>
  | Record<string, string | readonly string[] | undefined>;

export function encodeForm(input: Readonly<Record<string, unknown>>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) form.append(key, '');
      for (const item of value as unknown[]) form.append(key, encodeScalar(item));
    } else {
      form.append(key, encodeScalar(value));
    }
  }
  return form;
}

function encodeScalar(value: unknown): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  throw new TypeError(`Cannot form-encode a value of type ${typeof value}`);
}

/** Groups a form source into key → every value sent for it, in order. */
export function collectForm(source: FormSource): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    const values = fields.get(key);
    if (values) values.push(value);
    else fields.set(key, [value]);
  };
  if (source instanceof URLSearchParams || Symbol.iterator in source) {
    for (const [key, value] of source as Iterable<readonly [string, string]>) add(key, value);
  } else {
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined) continue;
      if (typeof value === 'string') add(key, value);
      else for (const item of value) add(key, item);
    }
  }
  return fields;
}

/**
 * Fields that need no value (primitives.ts `flag()`: spec §4.1 `orphans`, §4.6 `get_key`): a
 * registry, as zod/mini schemas carry no metadata of their own, read here for server and client.
 */
export const formFlags = z.registry<{ form: 'flag' }>();

type Schema = z.core.$ZodType;

type Kind = 'array' | 'boolean' | 'flag' | 'number' | 'identifier' | 'text';

interface FieldShape {
  kind: Kind;
  nullable: boolean;
  element?: FieldShape;
}

interface Def {
  type: string;
  innerType?: Schema;
  element?: Schema;
  options?: Schema[];
  values?: unknown[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Reads what the decoder needs to know of one field from its zod schema. */
function fieldShape(schema: Schema): FieldShape {
  let nullable = false;
  let isFlag = false;
  let current: Schema | undefined = schema;
  while (current) {
    if (formFlags.get(current)?.form === 'flag') isFlag = true;
    const def = defOf(current);
    if (!WRAPPERS.has(def.type)) break;
    if (def.type === 'nullable') nullable = true;
    current = def.innerType;
  }
  if (!current) return { kind: 'text', nullable };
  const def = defOf(current);
  if (isFlag) return { kind: 'flag', nullable };
  switch (def.type) {
    case 'array':
      return { kind: 'array', nullable, element: fieldShape(def.element as Schema) };
    case 'boolean':
      return { kind: 'boolean', nullable };
    case 'number':
    case 'int':
      return { kind: 'number', nullable };
    case 'literal':
      return { kind: def.values?.every((v) => typeof v === 'number') ? 'number' : 'text', nullable };
    case 'union': {
      const kinds = (def.options ?? []).map((option) => fieldShape(option).kind);
      const numeric = kinds.some((kind) => kind === 'number' || kind === 'identifier');
      // A union of numbers and text is an identifier (`Id`): the service's number, or a custom id.
      if (numeric && kinds.includes('text')) return { kind: 'identifier', nullable };
      return { kind: numeric ? 'number' : 'text', nullable };
    }
    default:
      return { kind: 'text', nullable };
  }
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const CANONICAL_ID = /^[1-9]\d*$/;

/** Spec §1 rule 4: "" and 0 are false; so is `false`, which real clients send (Scheme, JSON-minded). */
function isFalse(value: string): boolean {
  return value === '' || value === '0' || value.toLowerCase() === 'false';
}

function decodeScalar(value: string, shape: FieldShape): unknown {
  if (shape.nullable && value === '') return null;
  switch (shape.kind) {
    case 'flag':
      return value === '' ? true : !isFalse(value);
    case 'boolean':
      return !isFalse(value);
    case 'number':
      // Text that is no number stays text, so that validation names the field it concerns.
      return NUMBER.test(value) ? Number(value) : value;
    case 'identifier':
      // Only a canonical positive integer is a service id; `0042` or `-5` is a custom id (ccid).
      return CANONICAL_ID.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value;
    default:
      return value;
  }
}

/** The object schema behind a possibly refined input schema. */
function objectDef(schema: Schema): Def {
  const def = defOf(schema);
  if (!def.shape) throw new TypeError('Form schemas must be zod objects');
  return def;
}

function shapeForKey(def: Def, key: string): FieldShape | undefined {
  // Own keys only: a form key such as `constructor` or `__proto__` must not find Object.prototype.
  const field = (def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : undefined) ?? def.catchall;
  if (!field || defOf(field).type === 'never') return undefined;
  return fieldShape(field);
}

/**
 * Turns form fields into the plain object the schema validates. Unknown keys are kept as text so
 * that the schema reports them: a query takes only the parameters it lists (spec §4), and a body
 * leaves them out, by name, before it gets here (parseBody).
 */
export function decodeForm(schema: Schema, source: FormSource): Record<string, unknown> {
  const def = objectDef(schema);
  // Collected as entries so that a key named `__proto__` becomes an own field the schema can refuse.
  const result: [string, unknown][] = [];
  for (const [key, values] of collectForm(source)) {
    const shape = shapeForKey(def, key);
    if (!shape) {
      result.push([key, values.length === 1 ? values[0] : values]);
    } else if (shape.kind === 'array') {
      // A key sent once with an empty value clears the array.
      const element = shape.element ?? { kind: 'text', nullable: false };
      result.push([key, values.length === 1 && values[0] === '' ? [] : values.map((v) => decodeScalar(v, element))]);
    } else {
      result.push([key, values.length === 1 ? decodeScalar(values[0] as string, shape) : values]);
    }
  }
  return Object.fromEntries(result);
}

export type FormParseResult<T> = { success: true; data: T } | { success: false; message: string };

/** Decodes and validates a form in one step; a failure carries one message naming the field. */
export function parseForm<S extends Schema>(schema: S, source: FormSource): FormParseResult<z.output<S>> {
  const def = objectDef(schema);
  for (const [key, values] of collectForm(source)) {
    const unstorable = unstorableField(key, values);
    if (unstorable) return { success: false, message: unstorable };
    const shape = shapeForKey(def, key);
    if (values.length > 1 && shape && shape.kind !== 'array') {
      return { success: false, message: `${key}: given more than once, but it takes one value` };
    }
  }
  const input = decodeForm(schema, source);
  const parsed = z.safeParse(schema, input);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, message: describeIssues(parsed.error.issues, input) };
}

const MISSING_CODES = new Set<string>(['invalid_type', 'invalid_union', 'invalid_value']);

/**
 * What no schema can say. zod drops a `__proto__` key of an object with a catchall (contact custom
 * fields) instead of reporting it, so a query refuses it (a body ignores it by name, as any field
 * it does not list); PostgreSQL text cannot hold U+0000, so it is refused everywhere alike.
 */
function unstorableField(key: string, values: readonly string[]): string | null {
  if (key === '__proto__') return 'Unknown field: __proto__';
  if (key.includes('\0')) return 'A field name contains the NUL character';
  if (values.some((value) => value.includes('\0'))) return `${key}: contains the NUL character`;
  return null;
}

// --- request bodies as real clients send them ----------------------------------------------------

/**
 * An `application/json` body: an object with the fields a form would carry, arrays as JSON arrays,
 * booleans as true or false, numbers as numbers, null for a nullable field.
 */
export class JsonBody {
  readonly fields: Readonly<Record<string, unknown>>;

  constructor(fields: Readonly<Record<string, unknown>>) {
    this.fields = fields;
  }
}

/** A request body: form fields (urlencoded or multipart), or a JSON object with the same fields. */
export type BodySource = FormSource | JsonBody;

/** Every character a form encoder may leave unencoded (URLSearchParams, PHP, encodeURIComponent). */
const ENCODED_FORM = /^[A-Za-z0-9\-._~*!'()%+=&]*$/;

/**
 * Reads an `application/x-www-form-urlencoded` body. One holding a character that every encoder
 * encodes (a space, `<`, `$`, `@`, anything beyond ASCII) was never percent-encoded, so its `+` is
 * a plus sign, not a space: `emails=ann+news@example.org` keeps its address. `%XX` still decodes,
 * for clients that encode some values and leave others as they are.
 */
export function readFormBody(text: string): URLSearchParams {
  return new URLSearchParams(ENCODED_FORM.test(text) ? text : text.replaceAll('+', '%2B'));
}

const TEXT: FieldShape = { kind: 'text', nullable: false };

/** Turns a JSON body into the object the schema validates: text is read as a form's text is. */
export function decodeJson(schema: Schema, fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const def = objectDef(schema);
  const result: [string, unknown][] = [];
  for (const [key, value] of Object.entries(fields)) {
    const shape = shapeForKey(def, key);
    result.push([key, shape ? decodeJsonValue(value, shape) : value]);
  }
  return Object.fromEntries(result);
}

function decodeJsonValue(value: unknown, shape: FieldShape): unknown {
  if (shape.kind !== 'array') return decodeJsonScalar(value, shape);
  if (Array.isArray(value)) return value.map((item) => decodeJsonScalar(item, shape.element ?? TEXT));
  if (value === null) return value;
  // One value where an array goes is an array of it, as a key sent once is; "" clears it, as there.
  return value === '' ? [] : [decodeJsonScalar(value, shape.element ?? TEXT)];
}

function decodeJsonScalar(value: unknown, shape: FieldShape): unknown {
  if (typeof value === 'string') return decodeScalar(value, shape);
  if (typeof value !== 'number') return value; // booleans, null, objects: the schema judges them
  switch (shape.kind) {
    case 'boolean':
    case 'flag':
      return value !== 0;
    case 'identifier':
      return decodeScalar(String(value), shape);
    case 'text':
      // A ccid or a custom field sent as a JSON number means its digits.
      return String(value);
    default:
      return value;
  }
}

export type BodyParseResult<T> =
  | { success: true; data: T; ignored: string[] }
  | { success: false; message: string; ignored: string[] };

/**
 * Decodes and validates a request body (SECURITY.md 17). A field the schema does not list, or one
 * it marks read-only, is left out before validation, so it is never stored or applied, and named in
 * `ignored`: real clients send extra fields and PUT objects back as they read them. Custom contact
 * fields (a catchall) are kept for the service, which knows the account's fields.
 */
export function parseBody<S extends Schema>(schema: S, source: BodySource): BodyParseResult<z.output<S>> {
  const def = objectDef(schema);
  const ignored: string[] = [];
  const failure = (message: string) => ({ success: false as const, message, ignored });
  let input: Record<string, unknown>;
  if (source instanceof JsonBody) {
    const kept: [string, unknown][] = [];
    for (const [key, value] of Object.entries(source.fields)) {
      if (isIgnoredField(def, key)) {
        ignored.push(key);
        continue;
      }
      const unstorable = unstorableField(key, textsOf(value));
      if (unstorable) return failure(unstorable);
      kept.push([key, namesOfReadObjects(key, value, shapeForKey(def, key), ignored)]);
    }
    input = decodeJson(schema, Object.fromEntries(kept));
  } else {
    const kept: [string, string][] = [];
    for (const [key, values] of bracketsAsRepeatedKeys(def, collectForm(source))) {
      if (isIgnoredField(def, key)) {
        ignored.push(key);
        continue;
      }
      const unstorable = unstorableField(key, values);
      if (unstorable) return failure(unstorable);
      const shape = shapeForKey(def, key);
      if (values.length > 1 && shape && shape.kind !== 'array') {
        return failure(`${key}: given more than once, but it takes one value`);
      }
      for (const value of values) kept.push([key, value]);
    }
    input = decodeForm(schema, kept);
  }
  const parsed = z.safeParse(schema, input);
  if (parsed.success) return { success: true, data: parsed.data, ignored };
  return failure(describeIssues(parsed.error.issues, input));
}

/** PHP's `http_build_query` and jQuery send an array as `lists[]=a` or `lists[0]=a`. */
const BRACKETED = /^(.+)\[\d*\]$/;

/** Reads `name[]` and `name[0]` as `name` for an array field the schema lists, values in order. */
function bracketsAsRepeatedKeys(def: Def, fields: Map<string, string[]>): Map<string, string[]> {
  const arrayField = (key: string): string | undefined => {
    const base = BRACKETED.exec(key)?.[1];
    if (base === undefined || Object.hasOwn(def.shape ?? {}, key) || isIgnoredField(def, base)) return undefined;
    return shapeForKey(def, base)?.kind === 'array' ? base : undefined;
  };
  if (![...fields.keys()].some((key) => arrayField(key) !== undefined)) return fields;
  const merged = new Map<string, string[]>();
  for (const [key, values] of fields) {
    const name = arrayField(key) ?? key;
    merged.set(name, [...(merged.get(name) ?? []), ...values]);
  }
  return merged;
}

/**
 * An object read back where its name goes: a contact PUT back as read carries `emails` as email
 * objects and `lists` as membership objects, each named by the singular of its field (`email`,
 * `list`). Their other properties change nothing here (they have their own endpoints): named.
 */
function namesOfReadObjects(key: string, value: unknown, shape: FieldShape | undefined, ignored: string[]): unknown {
  if (shape?.kind !== 'array' || shape.element?.kind !== 'text' || !Array.isArray(value) || !key.endsWith('s')) {
    return value;
  }
  const nameKey = key.slice(0, -1);
  const others = new Set<string>();
  const names = value.map((item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const name = (item as Record<string, unknown>)[nameKey];
    if (!Object.hasOwn(item, nameKey) || typeof name !== 'string') return item;
    for (const property of Object.keys(item)) if (property !== nameKey) others.add(`${key}[].${property}`);
    return name;
  });
  for (const path of others) ignored.push(path);
  return names;
}

/** Whether a body leaves a key out: unlisted (no catchall takes it), read-only, or `__proto__`. */
function isIgnoredField(def: Def, key: string): boolean {
  if (key === '__proto__') return true;
  if (def.shape && Object.hasOwn(def.shape, key)) return isNever(def.shape[key] as Schema);
  return !def.catchall || isNever(def.catchall);
}

/** A `readOnly()` marker (primitives.ts) or a strict object's catchall: no value is valid. */
function isNever(schema: Schema): boolean {
  let def = defOf(schema);
  while (WRAPPERS.has(def.type) && def.innerType) def = defOf(def.innerType);
  return def.type === 'never';
}

/** The text a JSON value holds at the depth a field can take it (a value or an array of values). */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * Takes one field out of a body (`account_id`, which chooses the account rather than being a field
 * of the object): its values, and the body without it. A body without the field comes back as is.
 */
export function takeField(source: BodySource, key: string): { values: unknown[]; rest: BodySource } {
  if (source instanceof JsonBody) {
    if (!Object.hasOwn(source.fields, key)) return { values: [], rest: source };
    const rest = Object.fromEntries(Object.entries(source.fields).filter(([name]) => name !== key));
    return { values: [source.fields[key]], rest: new JsonBody(rest) };
  }
  if (source instanceof URLSearchParams && !source.has(key)) return { values: [], rest: source };
  const values: string[] = [];
  const rest: [string, string][] = [];
  for (const [name, fieldValues] of collectForm(source)) {
    if (name === key) values.push(...fieldValues);
    else for (const value of fieldValues) rest.push([name, value]);
  }
  return { values, rest };
}

/** One readable line for a validation failure: the field first, then what is wrong with it. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input?: unknown): string {
  return issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
      }
      const path = issue.path.map(String).join('.');
      // A missing field fails as invalid_type, or as invalid_union/invalid_value for ids and enums.
      if (MISSING_CODES.has(issue.code) && path && valueAt(input, issue.path) === undefined) return `${path}: is required`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
