import { ApiError } from '../../../../api/errors.ts';

/**
 * The field a server error concerns, when its message names it first (`name: has at most 64
 * characters`), and the rest of the message. Only the fields a form shows count.
 */
export function serverFieldError<F extends string>(
  error: unknown,
  fields: readonly F[],
): { field: F; message: string } | null {
  if (!(error instanceof ApiError) || error.status === 429 || error.status >= 500) return null;
  const match = /^([A-Za-z0-9_.-]+)(?:\[\d+\])?: (.+)$/s.exec(error.message);
  if (!match) return null;
  const field = fields.find((f) => f === match[1]);
  return field === undefined ? null : { field, message: match[2] ?? error.message };
}

/** Spec §4.1 rule 2 and §7: a create whose ccid is taken answers 409. */
export function isCcidConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}
