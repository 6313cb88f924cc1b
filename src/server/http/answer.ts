import type { FastifyReply } from 'fastify';
import type * as z from 'zod/mini';
import { describeIssues } from '../../api/form-encoding.ts';
import { OPERATIONS, type OperationName } from '../../api/operations.ts';
import { JsonText } from './json-text.ts';
import { assertStoredStrictly } from './stored-answers.ts';
import type { OperationPolicy } from './operation-policy.ts';

/** What Fastify sends with the objects it serializes; stored JSON goes out the same way. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** The schema an answer must meet: key retrieval answers a key, not the administrator. */
function responseSchema(name: OperationName, result: unknown): z.ZodMiniType {
  const isKey =
    name === 'users.update' && typeof result === 'object' && result !== null && 'key' in result;
  return OPERATIONS[isKey ? 'users.retrieveKey' : name].response;
}

/**
 * In tests (VALIDATE_RESPONSES): an answer outside the contract, or a stored setting outside its
 * write rules, is a 500, not a silent drift.
 */
export function assertWithinContract(name: OperationName, result: unknown): void {
  const answer = result instanceof JsonText ? (JSON.parse(result.text) as unknown) : result;
  const checked = responseSchema(name, answer).safeParse(answer);
  if (!checked.success) {
    throw new Error(
      `${name} answered outside the contract: ${describeIssues(checked.error.issues)}`,
    );
  }
  assertStoredStrictly(name, answer);
}

/**
 * Sends the handler's object (in the operation's envelope, http/operation-policy.ts) or a stored
 * contact document's JSON text as is.
 */
export function sendAnswer(
  reply: FastifyReply,
  envelope: OperationPolicy['envelope'],
  result: unknown,
): FastifyReply {
  if (result instanceof JsonText)
    return reply
      .type(JSON_TYPE)
      .send(envelope === 'data' ? `{"data":${result.text}}` : result.text);
  return reply.send(envelope === 'data' ? { data: result } : result);
}
