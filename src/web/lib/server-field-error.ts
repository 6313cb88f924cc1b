import { ApiError } from '../../api/errors.ts';

/**
 * The reference server's 400 messages name the field first (`name: has at most 64 characters`).
 * Returns that field and the rest of the message when the field is one of `fields`, so a form can
 * put the error on it; otherwise null (show the error on the form instead).
 */
export function serverFieldError<F extends string>(
  error: unknown,
  fields: readonly F[],
): { field: F; message: string } | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const match = /^([a-z_]+): (.+)$/s.exec(error.message);
  if (!match) return null;
  const field = fields.find((candidate) => candidate === match[1]);
  return field === undefined ? null : { field, message: match[2] ?? '' };
}
