/**
 * An error's message followed by its chain of causes (issue 16 finding 15: a start once failed with
 * "Migration … failed" and nothing saying why). A cause whose text is already there is not repeated.
 */
export function withCauses(error: Error): string {
  let message = error.message;
  let cause: unknown = error.cause;
  for (let depth = 0; cause !== undefined && depth < 10; depth += 1) {
    const text = cause instanceof Error ? cause.message : describe(cause);
    if (!message.includes(text)) message += `: ${text}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return message;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value);
}
