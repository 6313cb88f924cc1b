import { JsonBody } from '../../api/form-encoding.ts';
import { badRequest } from './http-error.ts';

/**
 * How deep a JSON body may nest. A field takes at most an array of values (depth 2); deeper values
 * are refused by the schema or ignored with their field, and V8 needs seconds to parse a megabyte
 * of `[[[[…` (SECURITY.md 29), so such a body is refused before it is parsed.
 */
export const JSON_MAX_DEPTH = 32;

/**
 * Reads an `application/json` body (the fields of spec §1 as a JSON object, as Deno and other
 * JSON-minded clients send them). An empty body is no fields; anything but an object is refused
 * with 400 in the spec's error shape. The size is bounded before this runs (BODY_LIMIT → 413).
 */
export function readJsonBody(text: string): JsonBody {
  if (text.trim() === '') return new JsonBody({});
  if (nestingExceeds(text, JSON_MAX_DEPTH)) {
    throw badRequest(`The JSON body nests deeper than ${JSON_MAX_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    // Spec §1: a body is fields.
    throw badRequest('A JSON body must be an object of fields');
  }
  return new JsonBody(value as Record<string, unknown>);
}

/** Counts brackets outside strings; malformed text is left for JSON.parse to refuse. */
function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
