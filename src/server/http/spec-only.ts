import type { FormSource } from '../../api/form-encoding.ts';

/**
 * `EXTENSIONS=off` (issue 15): the reference server offers exactly spec v2. Each extension checks
 * the flag where it is registered or emitted:
 * - operations marked `extension` in src/api/operations.ts are not registered (define-route.ts),
 *   so they answer the spec's 404;
 * - the fields of EXTENSION_FIELDS (operations.ts) are left out of answers and refused in bodies
 *   (define-route.ts, with the helpers below);
 * - no `X-RateLimit-*` headers; a 429 keeps `Retry-After`, standard HTTP (define-route.ts);
 * - no CORS, no `/config.json`, no RFC 8414 metadata, no sign-out with an access token, and
 *   OAuth clients are confidential only (routes/oauth.routes.ts, cli.ts).
 */

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

/** The names among `fields` that a form sends, in order; empty when none. */
export function fieldsSent(source: FormSource | null, fields: readonly string[]): string[] {
  if (source === null) return [];
  const names =
    source instanceof URLSearchParams || Symbol.iterator in source
      ? [...(source as Iterable<readonly [string, string]>)].map(([name]) => name)
      : Object.keys(source);
  return [...new Set(names.filter((name) => fields.includes(name)))];
}
