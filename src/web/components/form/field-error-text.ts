/** A field's error as react-hook-form holds it; `type` 'server' when the server's (lib/form-kit.ts). */
export interface FieldProblem {
  message?: string | undefined;
  type?: unknown;
}

/**
 * A server's message that completes a sentence about the field ("has at most 64 characters"),
 * as opposed to one that is a sentence of its own ("a list named news already exists").
 */
const PREDICATE =
  /^(?:is|are|has|have|must|may|cannot|can|does|do|needs?|uses?|contains?|holds?|should|was|were|already|only|not)\b/;

/**
 * The sentence of a field's error. The contract's rules are said after the label ("is required"
 * → "First name is required."); a message that is a sentence already (capitalized, or the
 * server's own "a list named news already exists") stands alone.
 */
export function fieldErrorText(
  label: string,
  problem: FieldProblem | undefined,
): string | undefined {
  const message = problem?.message;
  if (!message) return undefined;
  const alone = !/^[a-z]/.test(message) || (problem.type === 'server' && !PREDICATE.test(message));
  // An address leading the message keeps its case ("ann@example.org already belongs to…").
  const capitalized = /^\S*@/.test(message)
    ? message
    : message.charAt(0).toUpperCase() + message.slice(1);
  const text = alone ? capitalized : `${label} ${message}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** FormField's `error` and `announce` for a field's react-hook-form error. */
export function errorOf(label: string, problem: FieldProblem | undefined) {
  return { error: fieldErrorText(label, problem), announce: problem?.type === 'server' };
}
