import { ApiError } from '../../api/errors.ts';
import { withoutSpecReferences } from './api-error-message.ts';

/**
 * The reference server's 400 (and 409) messages name the field first (`name: has at most 64
 * characters`, `emails[1]: is already in use`, `restrict_contact.0: uses a backreference…`). Returns that field and the rest of the message
 * when the field is one of `fields`, so a form can put the error on it; otherwise null (show the
 * error on the form instead). Permission, rate-limit and server errors are never a field's.
 */
export function serverFieldError<F extends string>(
  error: unknown,
  fields: readonly F[],
): { field: F; message: string } | null {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return null;
  // `emails[1]` and the contract's own path form `restrict_contact.0` both name the array field.
  const match = /^([A-Za-z0-9_.-]+?)(?:\[\d+\]|\.\d+)?: (.+)$/s.exec(
    withoutSpecReferences(error.message),
  );
  if (!match) return null;
  const field = fields.find((candidate) => candidate === match[1]);
  return field === undefined ? null : { field, message: match[2] ?? '' };
}
