import * as z from 'zod/mini';
import { parseCidr } from './cidr.ts';
import {
  EMAIL_MAX_LENGTH,
  ID_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  PATTERN_MAX_LENGTH,
  SHORT_TEXT_MAX_LENGTH,
} from './constants.ts';
import { formFlags } from './form-encoding.ts';

// zod/mini, not classic zod, whose every schema carries every method, so none of it tree-shakes
// (issue 17 item 9). Its messages in words load where they are shown: english-messages.ts.

/**
 * Building blocks shared by the resource schemas. Identifiers are the service's own: the reference
 * server uses integers, but the spec does not fix their type, so strings are accepted too.
 */
export const Id = z.union([
  z.int().check(z.positive()),
  z.string().check(z.minLength(1), z.maxLength(ID_MAX_LENGTH)),
]);
export type Id = z.infer<typeof Id>;

/**
 * A creation date as read (spec §2.1, §2.4 `created`, format not shown): text as the server wrote
 * it, or a number, read as Unix seconds like a message's `time` (§2.5) and given as ISO 8601.
 */
export const CreationDate = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((created) => {
    if (typeof created === 'string') return created;
    const date = new Date(created * 1000);
    // Out of Date's range: shown as it came, never thrown at the page.
    return Number.isNaN(date.getTime()) ? String(created) : date.toISOString();
  }),
);

/** Spec §2.4: alphanumerics, underscore, period and hyphen; at most 64 characters. */
export const ListName = z
  .string()
  .check(
    z.minLength(1, 'is required'),
    z.maxLength(NAME_MAX_LENGTH, `has at most ${NAME_MAX_LENGTH} characters`),
    z.regex(NAME_PATTERN, 'may hold only letters, digits, underscore, period and hyphen'),
  );

/** Spec §8: account names follow the list-name rules. */
export const AccountName = ListName;

export const EmailAddress = z
  .email('is not a valid email address')
  .check(z.maxLength(EMAIL_MAX_LENGTH, `has at most ${EMAIL_MAX_LENGTH} characters`));

/** Text of at most `max` characters (SECURITY.md 21: every string has a maximum; constants.ts). */
export function text(max: number) {
  return z.string().check(z.maxLength(max, `has at most ${max} characters`));
}

/** An array of at most `max` values (SECURITY.md 21: every array has a maximum; constants.ts). */
export function arrayOf<T extends z.core.SomeType>(item: T, max: number) {
  return z.array(item).check(z.maxLength(max, `has at most ${max} values`));
}

/** A regular expression as the API stores it (taboo rules, address restrictions). */
export const RegexSource = z
  .string()
  .check(
    z.minLength(1, 'cannot be empty: it would match everything'),
    z.maxLength(PATTERN_MAX_LENGTH, `has at most ${PATTERN_MAX_LENGTH} characters`),
    z.refine(isValidRegex, 'is not a valid regular expression'),
  );

export function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** Spec §2.6: the `cidr` restriction, IPv4 or IPv6, with or without a prefix length. */
export const Cidr = text(SHORT_TEXT_MAX_LENGTH).check(
  z.refine(isCidr, 'is not a valid IP address or CIDR range'),
);

export function isCidr(value: string): boolean {
  return parseCidr(value) !== null;
}

/**
 * A field a client may read but never write (spec: "read-only"). Kept in input schemas so that a
 * body naming it has it ignored and named, never applied (parseBody, SECURITY.md 17), and the
 * schema alone still refuses it with a message that says why.
 */
export function readOnly(why = 'is read-only') {
  return z.optional(z.never({ error: why }));
}

/**
 * A query parameter that needs no value (spec §4.1 `orphans`, §4.6 `get_key`): present means true.
 * The form decoder reads the `formFlags` registry.
 */
export function flag() {
  return z.optional(z.boolean().register(formFlags, { form: 'flag' }));
}

/** Spec §1 rule 3: the body of a successful DELETE (and of POST /messages/). */
export const SuccessBody = z.object({ success: z.literal(1) });
export type SuccessBody = z.infer<typeof SuccessBody>;

/** The query of an operation that takes no parameters (spec §4): any parameter sent is refused. */
export const NoQuery = z.strictObject({});

/** Spec §7: every error body. */
export const ErrorBody = z.object({ is_error: z.literal(true), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Shared by the paged collection queries (spec §4.1, §4.5, §4.7). */
export function pageQuery(maxLimit: number) {
  return {
    page: z.optional(z.int('must be a whole number').check(z.gte(1, 'starts at 1'))),
    limit: z.optional(
      z
        .int('must be a whole number')
        .check(z.gte(1, 'must be at least 1'), z.lte(maxLimit, `is at most ${maxLimit}`)),
    ),
  };
}

/** Spec §4.1 and §4.5: a page of a collection. */
export function pageOf<T extends z.core.SomeType>(item: T) {
  return z.looseObject({
    count: z.int().check(z.nonnegative()),
    page: z.int().check(z.positive()),
    data: z.array(item),
  });
}

/** Makes every field of a shape optional: update inputs are partial (spec §1 rule 6). */
export function optionalAll<T extends Record<string, z.core.SomeType>>(shape: T) {
  return Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [key, z.optional(schema)]),
  ) as {
    [K in keyof T]: z.ZodMiniOptional<T[K]>;
  };
}
