import fc from 'fast-check';
import type * as z from 'zod/mini';
import { Cidr } from '../primitives.ts';
import { checksOf, defOf, shapeOf, unwrapOptional } from './zod-walk.ts';

/**
 * Derives a fast-check arbitrary from a zod 4 input schema, so that a property over "every input
 * schema" covers a schema added tomorrow without anyone writing a generator for it. It reads the
 * schema's definition (object shape, optional, nullable, array, boolean, int/number bounds, enum,
 * literal, union, string length/format/pattern) and throws on anything it does not understand, so
 * a new kind of field fails the test loudly instead of being skipped.
 *
 * Constraints on the generated values, each forced by the wire format (spec §1), not by taste:
 *
 * - Strings in a union with a number (the `Id` of primitives.ts) are never a canonical positive
 *   integer: the form decoder reads such text as the service's number id, so the string id "12"
 *   and the number 12 are the same on the wire. Other text ("0042", "-5") stays a custom id.
 * - Non-integer numbers are kept to plain decimal notation (no `1e-7`): the decoder reads only
 *   `-?digits(.digits)?`. No input schema has a non-integer number today.
 * - Strings are well-formed Unicode (no lone surrogates): URLSearchParams, like every UTF-8
 *   transport, replaces a lone surrogate with U+FFFD. fast-check's `binary` unit already excludes them.
 * - Read-only fields (`z.never()` markers) are never generated: no value of theirs is valid.
 * - No text holds U+0000 and no custom field is named `__proto__`: parseForm refuses both (the
 *   database cannot store the one, zod silently drops the other).
 *
 * Deliberately not constrained: the empty string for nullable text, or an array holding one empty
 * string. On the wire "" is null for a nullable field and a lone empty value clears an array, so
 * such a schema cannot round-trip; the contract avoids them (nullable text is `.min(1)`, array items
 * are non-empty) and the property is there to catch a schema that forgets.
 *
 * Everything else follows from the schema itself; the property tests still assert
 * `schema.safeParse(value).success`, so a generator that drifts from its schema fails at once.
 */

/** The text the form decoder turns into a number for numeric fields (form-encoding.ts). */
export const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;

/** The text the form decoder reads as a service id in an identifier field (form-encoding.ts). */
export const CANONICAL_ID_TEXT = /^[1-9]\d*$/;

/**
 * Schemas whose refinement a generic walk cannot invert (a random string is almost never a CIDR
 * range). Keyed by schema identity: `Cidr.nullable().optional()` wraps this very instance.
 * Refinements not listed here are met by filtering, which suits cheap-to-hit rules (a valid regex).
 */
const OVERRIDES = new Map<z.ZodMiniType, fc.Arbitrary<unknown>>([
  [
    Cidr,
    fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([ip, prefix]) => `${ip}/${prefix}`),
      fc
        .tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 }))
        .map(([ip, prefix]) => `${ip}/${prefix}`),
    ),
  ],
]);

/** Longest generated text where the schema sets no maximum: long enough to matter, short enough to be fast. */
const DEFAULT_MAX_LENGTH = 24;
/** Longest generated array beyond the schema's minimum. */
const EXTRA_ARRAY_ITEMS = 4;
/** Custom (catchall) fields per object. */
const MAX_CUSTOM_FIELDS = 3;

/**
 * Names of Object.prototype members: a decoder that looks keys up on a plain object finds these
 * even when the schema does not define them, so custom fields are sometimes given these names.
 */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

export function arbitraryFor(schema: z.ZodMiniType, path = '$'): fc.Arbitrary<unknown> {
  const override = OVERRIDES.get(schema);
  if (override) return override;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      // Only reachable outside an object (objects leave optional keys out instead).
      return fc.option(arbitraryFor(def.innerType as z.ZodMiniType, path), { nil: undefined });
    case 'nullable':
      return fc.option(arbitraryFor(def.innerType as z.ZodMiniType, path), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return arbitraryFor(def.innerType as z.ZodMiniType, path);
    case 'object':
      return objectArbitrary(schema, path);
    case 'array':
      return arrayArbitrary(schema, path);
    case 'boolean':
      return fc.boolean();
    case 'number':
      return numberArbitrary(schema, path);
    case 'string':
      return stringArbitrary(schema, path);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'union':
      return unionArbitrary(def.options ?? [], path);
    default:
      throw new TypeError(
        `No arbitrary for zod type "${def.type}" at ${path}: teach test-support/zod-arbitrary.ts this type`,
      );
  }
}

function objectArbitrary(schema: z.ZodMiniType, path: string): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(schema);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const { schema: inner, optional } = unwrapOptional(field);
    if (defOf(inner).type === 'never') continue; // read-only marker: nothing valid to send
    model[key] = arbitraryFor(inner, `${path}.${key}`);
    if (!optional) requiredKeys.push(key);
  }
  let arbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(model, {
    requiredKeys,
    noNullPrototype: true,
  });

  // Custom fields (the contact's catchall): extra keys that are not standard fields.
  const catchall = defOf(schema).catchall;
  if (catchall && !['never', 'unknown', 'any'].includes(defOf(catchall).type)) {
    const key = fc
      .oneof(
        { arbitrary: fc.constantFrom(...PROTOTYPE_NAMES), weight: 1 },
        { arbitrary: fc.string({ minLength: 1, maxLength: 12 }), weight: 3 },
      )
      // `__proto__` is refused on the wire (parseForm: zod would drop it silently).
      .filter((name) => !Object.hasOwn(shape, name) && name !== '__proto__' && !name.includes('\0'));
    const custom = fc.dictionary(key, arbitraryFor(catchall, `${path}.<custom>`), {
      maxKeys: MAX_CUSTOM_FIELDS,
      noNullPrototype: true,
    });
    arbitrary = fc.tuple(custom, arbitrary).map(([extra, standard]) => ({ ...extra, ...standard }));
  }

  // Object-level refinements (MessageSend needs some content; expiry_months needs get_key) are
  // cross-field rules the walk cannot read: keep the values that meet them.
  if (checksOf(schema).length > 0)
    arbitrary = arbitrary.filter((value) => schema.safeParse(value).success);
  return arbitrary;
}

function arrayArbitrary(schema: z.ZodMiniType, path: string): fc.Arbitrary<unknown[]> {
  let minLength = 0;
  let maxLength = Number.POSITIVE_INFINITY;
  for (const check of checksOf(schema)) {
    if (check.check === 'min_length') minLength = Math.max(minLength, check.minimum ?? 0);
    else if (check.check === 'max_length')
      maxLength = Math.min(maxLength, check.maximum ?? maxLength);
    else if (check.check === 'length_equals') minLength = maxLength = check.length ?? 0;
    else throw new TypeError(`No arbitrary for array check "${check.check}" at ${path}`);
  }
  const element = arbitraryFor(defOf(schema).element as z.ZodMiniType, `${path}[]`);
  return fc.array(element, {
    minLength,
    maxLength: Math.min(maxLength, minLength + EXTRA_ARRAY_ITEMS),
  });
}

function numberArbitrary(schema: z.ZodMiniType, path: string): fc.Arbitrary<number> {
  const def = defOf(schema);
  const integer = def.format === 'safeint' || def.format === 'int32' || def.format === 'uint32';
  let min = integer ? Number.MIN_SAFE_INTEGER : -1e9;
  let max = integer ? Number.MAX_SAFE_INTEGER : 1e9;
  for (const check of checksOf(schema)) {
    const value = check.value ?? 0;
    if (check.check === 'greater_than')
      min = Math.max(min, check.inclusive || !integer ? value : Math.floor(value) + 1);
    else if (check.check === 'less_than')
      max = Math.min(max, check.inclusive || !integer ? value : Math.ceil(value) - 1);
    else if (check.check !== 'number_format')
      throw new TypeError(`No arbitrary for number check "${check.check}" at ${path}`);
  }
  if (integer) return fc.integer({ min, max });
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .filter(
      (n) => !Object.is(n, -0) && NUMERIC_TEXT.test(String(n)) && schema.safeParse(n).success,
    );
}

function stringArbitrary(schema: z.ZodMiniType, path: string): fc.Arbitrary<string> {
  const def = defOf(schema);
  let minLength = 0;
  let maxLength = Number.POSITIVE_INFINITY;
  const patterns: RegExp[] = [];
  let refined = false;
  // z.url() checks with the URL parser, not a pattern: web URLs, kept to those the schema takes
  // (its protocol and length), as the filter below does for every refinement.
  if (def.format === 'url') {
    return fc
      .webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true })
      .filter((url) => schema.safeParse(url).success);
  }
  // A string format (z.email()) is itself the check: its pattern sits on the schema's definition.
  if (def.format) {
    if (!def.pattern)
      throw new TypeError(`No arbitrary for string format "${def.format}" at ${path}`);
    patterns.push(def.pattern);
  }
  for (const check of checksOf(schema)) {
    switch (check.check) {
      case 'min_length':
        minLength = Math.max(minLength, check.minimum ?? 0);
        break;
      case 'max_length':
        maxLength = Math.min(maxLength, check.maximum ?? maxLength);
        break;
      case 'length_equals':
        minLength = maxLength = check.length ?? 0;
        break;
      case 'string_format':
        if (!check.pattern)
          throw new TypeError(`No arbitrary for string format "${check.format}" at ${path}`);
        patterns.push(check.pattern);
        break;
      case 'custom':
        refined = true;
        break;
      default:
        throw new TypeError(`No arbitrary for string check "${check.check}" at ${path}`);
    }
  }
  const generationMax = Math.min(maxLength, Math.max(minLength, 0) + DEFAULT_MAX_LENGTH);
  const [first, ...others] = patterns;
  let arbitrary: fc.Arbitrary<string> = first
    ? // `size` rather than `maxLength`: fast-check meets a maxLength by retrying, ~50 times slower
      // on the email pattern; the length filter below enforces the schema's bounds instead.
      fc.stringMatching(first, { size: 'small' })
    : fc.oneof(
        // Printable ASCII finds the form's own metacharacters (& = + % #); `binary` the rest of Unicode.
        fc.string({ minLength, maxLength: generationMax }),
        fc.string({ minLength, maxLength: generationMax, unit: 'binary' }),
      );
  // U+0000 is refused on the wire (parseForm): PostgreSQL text cannot hold it.
  arbitrary = arbitrary.filter((s) => !s.includes('\0'));
  if (first) {
    arbitrary = arbitrary.filter(
      (s) =>
        s.length >= minLength &&
        s.length <= maxLength &&
        others.every((pattern) => pattern.test(s)),
    );
  }
  if (refined) arbitrary = arbitrary.filter((s) => schema.safeParse(s).success);
  return arbitrary;
}

function unionArbitrary(options: z.ZodMiniType[], path: string): fc.Arbitrary<unknown> {
  const arbitrary = fc.oneof(
    ...options.map((option, index) => arbitraryFor(option, `${path}|${index}`)),
  );
  const numeric = options.some(isNumeric);
  // See the module comment: numeric-looking text is a number on the wire for such a field.
  return numeric
    ? arbitrary.filter((value) => typeof value !== 'string' || !CANONICAL_ID_TEXT.test(value))
    : arbitrary;
}

/** Mirrors the decoder's view of a union member as numeric (form-encoding.ts `fieldShape`). */
function isNumeric(option: z.ZodMiniType): boolean {
  const def = defOf(unwrapOptional(option).schema);
  if (def.type === 'number') return true;
  if (def.type === 'literal') return (def.values ?? []).every((value) => typeof value === 'number');
  if (def.type === 'union') return (def.options ?? []).some(isNumeric);
  return false;
}
