import type { FastifyRequest } from 'fastify';
import type { FormSource } from '../../api/form-encoding.ts';
import { BODY_LIMIT } from './body-limit.ts';
import { HttpError, badRequest } from './http-error.ts';

/**
 * Multipart is streamed past Fastify's body limit, so the limit is enforced here (SECURITY.md 21):
 * a declared length over it, a field the parser truncated, or fields adding up to more → 413.
 */
export async function readMultipart(request: FastifyRequest): Promise<FormSource> {
  if (Number(request.headers['content-length']) > BODY_LIMIT) throw bodyTooLarge();
  const fields: [string, string][] = [];
  let size = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file')
        throw badRequest(`${part.fieldname}: file uploads are not accepted`);
      if (part.valueTruncated || part.fieldnameTruncated) throw bodyTooLarge();
      // A part declared as JSON arrives parsed; form fields are text (spec §1).
      if (typeof part.value !== 'string')
        throw badRequest(`${part.fieldname}: send form fields as text`);
      size += Buffer.byteLength(part.fieldname) + Buffer.byteLength(part.value);
      if (size > BODY_LIMIT) throw bodyTooLarge();
      fields.push([part.fieldname, part.value]);
    }
  } catch (error) {
    // The parser's own limits carry their status (413, 400); anything else is a malformed body.
    if (error instanceof HttpError || hasClientStatus(error)) throw error;
    throw badRequest('The multipart body is malformed');
  }
  return fields;
}

function bodyTooLarge(): HttpError {
  return new HttpError(413, `The request body is larger than ${BODY_LIMIT} bytes`);
}

function hasClientStatus(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
