import type * as z from 'zod';

/**
 * Spec §1: request bodies (and queries) are form fields. This module is the one implementation of
 * that encoding: the client encodes with it, the server decodes with it, and a property test proves
 * that decoding an encoded input gives the input back.
 *
 * - arrays: one repeated key per value (rule 2); an empty array is the key sent once, empty;
 * - booleans: sent as 1 or 0; read as false for "" and "0", true for any other string (rule 4);
 * - null (for a nullable field): sent as the empty string;
 * - flags (`orphans`, `get_key`): a key with no value means true.
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

type Kind = 'array' | 'boolean' | 'flag' | 'number' | 'identifier' | 'text';

interface FieldShape {
  kind: Kind;
  nullable: boolean;
  element?: FieldShape;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Reads what the decoder needs to know of one field from its zod schema. */
function fieldShape(schema: z.ZodType): FieldShape {
  let nullable = false;
  let isFlag = false;
  let current: z.ZodType | undefined = schema;
  while (current) {
    const meta = (current as unknown as { meta(): Record<string, unknown> | undefined }).meta();
    if (meta?.form === 'flag') isFlag = true;
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
      return { kind: 'array', nullable, element: fieldShape(def.element as z.ZodType) };
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

function decodeScalar(value: string, shape: FieldShape): unknown {
  if (shape.nullable && value === '') return null;
  switch (shape.kind) {
    case 'flag':
      return value === '' ? true : value !== '0';
    case 'boolean':
      return value !== '' && value !== '0';
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
function objectDef(schema: z.ZodType): Def {
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
 * that the schema reports them (mass assignment is refused, never silently dropped).
 */
export function decodeForm(schema: z.ZodType, source: FormSource): Record<string, unknown> {
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
export function parseForm<S extends z.ZodType>(schema: S, source: FormSource): FormParseResult<z.infer<S>> {
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
  const parsed = schema.safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, message: describeIssues(parsed.error.issues, input) };
}

const MISSING_CODES = new Set<string>(['invalid_type', 'invalid_union', 'invalid_value']);

/**
 * What no schema can say. zod drops a `__proto__` key of an object with a catchall (contact custom
 * fields) instead of reporting it, and an unknown field is refused, never ignored (mass assignment);
 * PostgreSQL text cannot hold U+0000, so it is refused everywhere alike.
 */
function unstorableField(key: string, values: readonly string[]): string | null {
  if (key === '__proto__') return 'Unknown field: __proto__';
  if (key.includes('\0')) return 'A field name contains the NUL character';
  if (values.some((value) => value.includes('\0'))) return `${key}: contains the NUL character`;
  return null;
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
