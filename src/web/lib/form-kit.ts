import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { serverFieldError } from './server-field-error.ts';

/**
 * The one way a server's refusal reaches a form (form kit): when the message names one of
 * `fields` (lib/server-field-error.ts), the error goes on that field and this returns true; else
 * false, and the form shows the error above its buttons. `fieldOf` maps a named field to the
 * form's own path when they differ (`emails` → `emails.0.address`).
 */
export function applyServerError<T extends FieldValues, F extends string>(
  error: unknown,
  fields: readonly F[],
  setError: UseFormSetError<T>,
  fieldOf: (field: F) => Path<T> = (field) => field as unknown as Path<T>,
): boolean {
  const found = serverFieldError(error, fields);
  if (!found) return false;
  setError(fieldOf(found.field), { type: 'server', message: found.message });
  return true;
}
