import { useEffect, useState } from 'react';
import type { FieldValues, Path, UseFormReturn, UseFormSetError } from 'react-hook-form';
import { serverFieldError } from './server-field-error.ts';

/**
 * The one way a server's refusal reaches a form (form kit): when the message names one of
 * `fields` (lib/server-field-error.ts), the error goes on that field, typed 'server', and its path
 * is returned; else null, and the form shows the error above its buttons. `fieldOf` maps a named
 * field to the form's own path when they differ (`emails` → `emails.0.address`).
 */
export function applyServerError<T extends FieldValues, F extends string>(
  error: unknown,
  fields: readonly F[],
  setError: UseFormSetError<T>,
  fieldOf: (field: F) => Path<T> = (field) => field as unknown as Path<T>,
): Path<T> | null {
  const found = serverFieldError(error, fields);
  if (!found) return null;
  const path = fieldOf(found.field);
  setError(path, { type: 'server', message: found.message });
  return path;
}

/**
 * A form's server refusals (form kit): `place` puts one on its field by `applyServerError`, or
 * keeps it as `formError`, the refusal no field carries, shown above the form's buttons; `clear`
 * forgets it when the form is sent again.
 */
export function useServerErrors<T extends FieldValues, F extends string>(
  form: Pick<UseFormReturn<T>, 'setError'>,
  fields: readonly F[],
  fieldOf?: (field: F) => Path<T>,
) {
  const [formError, setFormError] = useState<unknown>(null);
  return {
    formError,
    place: (error: unknown): Path<T> | null => {
      const path = applyServerError(error, fields, form.setError, fieldOf);
      setFormError(path === null ? error : null);
      return path;
    },
    clear: () => setFormError(null),
  };
}

/**
 * A form inside a dialog tells the dialog whether it holds unsaved edits, so that Escape and the
 * close button ask first (components/dialog.tsx).
 */
export function useReportDirty(
  dirty: boolean,
  onDirtyChange: ((dirty: boolean) => void) | undefined,
) {
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
}
