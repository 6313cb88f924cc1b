import type { FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import {
  JsonBody,
  parseBody,
  parseForm,
  type BodySource,
  type FormSource,
} from '../../api/form-encoding.ts';
import { HttpError, badRequest } from './http-error.ts';
import { IGNORED_FIELDS_HEADER, ignoredFieldsHeader } from './ignored-fields.ts';

/**
 * Decodes a form (null: none sent) or refuses it with 400. What no form decodes to is worked out
 * once per route, as most reads send no query and no read has a body.
 */
export function formParser<S extends z.ZodMiniType>(
  schema: S,
): (source: FormSource | null) => z.output<S> {
  const parsedEmpty = parseForm(schema, []);
  return (source) => {
    if (source === null && parsedEmpty.success)
      return { ...(parsedEmpty.data as object) } as z.output<S>;
    const parsed = parseForm(schema, source ?? []);
    if (!parsed.success) throw badRequest(parsed.message);
    return parsed.data;
  };
}

/**
 * Decodes a body (null: none sent) or refuses it with 400. Fields it does not take are left out and
 * named (parseBody); what an empty body decodes to is worked out once per route.
 */
export function bodyParser<S extends z.ZodMiniType>(
  schema: S,
): (source: BodySource | null) => { body: z.output<S>; ignored: string[] } {
  const parsedEmpty = parseBody(schema, []);
  return (source) => {
    if (source === null && parsedEmpty.success)
      return { body: { ...(parsedEmpty.data as object) } as z.output<S>, ignored: [] };
    const parsed = parseBody(schema, source ?? []);
    if (!parsed.success) {
      const named: Record<string, string> =
        parsed.ignored.length > 0
          ? { [IGNORED_FIELDS_HEADER]: ignoredFieldsHeader(parsed.ignored) }
          : {};
      throw new HttpError(400, parsed.message, named);
    }
    return { body: parsed.data, ignored: parsed.ignored };
  };
}

/**
 * Urlencoded bodies arrive as URLSearchParams and JSON bodies as JsonBody (app.ts); multipart
 * fields are read by readMultipart.
 */
export function bodyOf(request: FastifyRequest): BodySource | null {
  const body = request.body;
  return body instanceof URLSearchParams || body instanceof JsonBody ? body : null;
}
