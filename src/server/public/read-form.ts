import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../http/http-error.ts';
import { readMultipart } from '../http/multipart-body.ts';

/**
 * A public page's form, as the browser (or a mail program's one-click POST, RFC 8058) sends it:
 * `application/x-www-form-urlencoded` or `multipart/form-data`, each field once, and only the
 * fields the page has (SECURITY.md 46). Anything else is refused with 400 or 415.
 */
export async function readPublicForm(
  request: FastifyRequest,
  allowed: readonly string[],
): Promise<Map<string, string>> {
  let entries: readonly (readonly [string, string])[];
  // readMultipart answers its fields in order, as pairs.
  if (request.isMultipart()) entries = (await readMultipart(request)) as [string, string][];
  else if (request.body instanceof URLSearchParams) entries = [...request.body.entries()];
  else if (request.body === undefined || request.body === null) entries = [];
  else throw new HttpError(415, 'Send the form as a browser does (application/x-www-form-urlencoded or multipart/form-data)');
  const form = new Map<string, string>();
  for (const [name, value] of entries) {
    if (!allowed.includes(name)) throw badRequest(`This form has no field ${name}`);
    if (form.has(name)) throw badRequest(`The field ${name} is sent more than once`);
    form.set(name, value);
  }
  return form;
}

