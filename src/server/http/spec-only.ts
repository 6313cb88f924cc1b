import * as z from 'zod/mini';
import { JsonBody, type BodySource } from '../../api/form-encoding.ts';
import { bodyParser } from './field-parsers.ts';
import { JsonText } from './json-text.ts';

/**
 * `EXTENSIONS=off` (issue 15): the reference server offers exactly spec v2. Each extension checks
 * the flag where it is registered or emitted:
 * - operations marked `extension` in src/api/operations.ts are not registered (define-route.ts),
 *   so they answer the spec's 404;
 * - the query parameters an operation marks `extensionQuery` are unknown ones: refused with 400,
 *   as spec §4 lists the only parameters there are (querySchemaWithout below);
 * - the fields an operation marks `extensionFields` (reasons: EXTENSION_FIELDS) are left out of
 *   answers and, in bodies, treated as unknown fields are: ignored and named in X-Ignored-Fields
 *   (define-route.ts, helpers below);
 * - no `X-RateLimit-*` headers; a 429 keeps `Retry-After`, standard HTTP (define-route.ts);
 * - no CORS, no `/config.json`, no RFC 8414 metadata, no sign-out with an access token, and
 *   OAuth clients are confidential only (routes/oauth.routes.ts, cli.ts).
 */

/** A query schema without the given parameters (a strict object stays strict: they are refused). */
export function querySchemaWithout(
  schema: z.ZodMiniType,
  params: readonly string[] = [],
): z.ZodMiniType {
  if (params.length === 0 || !(schema instanceof z.ZodMiniObject)) return schema;
  const mask: Record<string, true> = Object.fromEntries(params.map((param) => [param, true]));
  return z.omit(schema, mask as never);
}

/**
 * A body parser (field-parsers.ts) to which the given fields are unknown ones: left out, and named
 * first among the ignored. The plain parser when there are none.
 */
export function bodyParserWithout<S extends z.ZodMiniType>(
  schema: S,
  fields: readonly string[],
): ReturnType<typeof bodyParser<S>> {
  const parse = bodyParser(schema);
  if (fields.length === 0) return parse;
  return (source) => {
    const sent = fieldsSent(source, fields);
    const decoded = parse(sent.length > 0 ? withoutSentFields(source, sent) : source);
    return { body: decoded.body, ignored: [...sent, ...decoded.ignored] };
  };
}

/**
 * Leaves the given fields out of a handler's answers; nothing to do when there are none. A JSON
 * text is written again by its own `without` (a list's extension settings); one without it
 * carries none: contact documents have no extension field, and `contacts_count` is only answered
 * when asked for, which EXTENSIONS=off refuses.
 */
export function answerWithout(fields: readonly string[]): <T>(result: T) => T {
  if (fields.length === 0) return (result) => result;
  return <T>(result: T): T =>
    result instanceof JsonText
      ? ((result.without?.(fields) ?? result) as T)
      : withoutFields(result, fields);
}

/** An answer without the given fields: an object, or each object of an array. */
export function withoutFields<T>(result: T, fields: readonly string[]): T {
  if (Array.isArray(result)) return result.map((item: unknown) => withoutFields(item, fields)) as T;
  if (result === null || typeof result !== 'object') return result;
  let copy: Record<string, unknown> | null = null;
  for (const field of fields) {
    if (field in result) {
      copy ??= { ...(result as Record<string, unknown>) };
      delete copy[field];
    }
  }
  return (copy ?? result) as T;
}

/** The names among `fields` that a body sends, in order; empty when none. */
export function fieldsSent(source: BodySource | null, fields: readonly string[]): string[] {
  if (source === null || fields.length === 0) return [];
  return [...new Set(namesOf(source).filter((name) => fields.includes(name)))];
}

/** The body without the given fields, in the form it came in. */
export function withoutSentFields(
  source: BodySource | null,
  fields: readonly string[],
): BodySource | null {
  if (source === null) return null;
  if (source instanceof JsonBody)
    return new JsonBody(
      Object.fromEntries(Object.entries(source.fields).filter(([name]) => !fields.includes(name))),
    );
  if (source instanceof URLSearchParams || Symbol.iterator in source)
    return [...(source as Iterable<readonly [string, string]>)].filter(
      ([name]) => !fields.includes(name),
    );
  return Object.fromEntries(Object.entries(source).filter(([name]) => !fields.includes(name)));
}

function namesOf(source: BodySource): string[] {
  if (source instanceof JsonBody) return Object.keys(source.fields);
  return source instanceof URLSearchParams || Symbol.iterator in source
    ? [...(source as Iterable<readonly [string, string]>)].map(([name]) => name)
    : Object.keys(source);
}
