import type { FastifyReply } from 'fastify';
import type * as z from 'zod';
import { describeIssues } from '../../api/form-encoding.ts';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import { JsonText } from './json-text.ts';

/** What Fastify sends with the objects it serializes; stored JSON goes out the same way. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Spec §4.4 and §4.6 answer "a JSON object containing an array" (spec §1 rule 3: every body is an
 * object) without naming the key; the reference server uses `data`, as on the paged collections.
 * Spec §4.7 answers accounts as a bare "JSON list".
 */
const DATA_ENVELOPE: ReadonlySet<OperationName> = new Set(['lists.list', 'users.list']);

/** The schema an answer must meet: key retrieval answers a key, not the administrator. */
function responseSchema(name: OperationName, result: unknown): z.ZodType {
  const isKey =
    name === 'users.update' && typeof result === 'object' && result !== null && 'key' in result;
  return OPERATIONS[isKey ? 'users.retrieveKey' : name].response;
}

/** In tests (VALIDATE_RESPONSES): an answer outside the contract is a 500, not a silent drift. */
export function assertWithinContract(name: OperationName, result: unknown): void {
  const answer = result instanceof JsonText ? (JSON.parse(result.text) as unknown) : result;
  const checked = responseSchema(name, answer).safeParse(answer);
  if (!checked.success) {
    throw new Error(
      `${name} answered outside the contract: ${describeIssues(checked.error.issues)}`,
    );
  }
}

/** Sends the handler's object (in its envelope) or a stored contact document's JSON text as is. */
export function sendAnswer(
  reply: FastifyReply,
  name: OperationName,
  result: unknown,
): FastifyReply {
  if (result instanceof JsonText) return reply.type(JSON_TYPE).send(result.text);
  return reply.send(DATA_ENVELOPE.has(name) ? { data: result } : result);
}
