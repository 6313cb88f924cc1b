import { useEffect, useState } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Mode,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type * as z from 'zod/mini';
import { zodResolver } from '../components/form/zod-resolver.ts';
import { serverFieldError, type ServerFieldError } from './server-field-error.ts';

/**
 * Maps a field the server named to the form's own path (`emails` → `emails.0.address`), knowing
 * the values sent (the row of the address the server named).
 */
export type FieldOf<T extends FieldValues, F extends string> = (
  field: F,
  found: ServerFieldError<F>,
  values: T,
) => Path<T>;

/**
 * The one way a server's refusal reaches a form (form kit): when the message names one of
 * `fields` (lib/server-field-error.ts), the error goes on that field, typed 'server', and its path
 * is returned; else null, and the form shows the error above its buttons.
 */
export function applyServerError<T extends FieldValues, F extends string>(
  error: unknown,
  fields: readonly F[],
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  fieldOf: FieldOf<T, F> = (field) => field as unknown as Path<T>,
): Path<T> | null {
  const found = serverFieldError(error, fields);
  if (!found) return null;
  const path = fieldOf(found.field, found, form.getValues());
  form.setError(path, { type: 'server', message: found.message });
  return path;
}

/**
 * A form's server refusals (form kit): `place` puts one on its field by `applyServerError`, or
 * keeps it as `formError`, the refusal no field carries, shown above the form's buttons; `clear`
 * forgets it when the form is sent again.
 */
export function useServerErrors<T extends FieldValues, F extends string>(
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  fields: readonly F[],
  fieldOf?: FieldOf<T, F>,
) {
  const [formError, setFormError] = useState<unknown>(null);
  return {
    formError,
    place: (error: unknown): Path<T> | null => {
      const path = applyServerError(error, fields, form, fieldOf);
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

/**
 * Every form of the dashboard (form kit): react-hook-form checked by the contract's zod schema,
 * the server's refusals put on the fields they name (`serverFields`) or kept as `formError`, and
 * the dirty state reported to a dialog (`onDirtyChange`).
 *
 * @example
 * const { form, serverErrors } = useKitForm({ schema: NewList, defaultValues: { name: '' }, serverFields: ['name'] });
 * const submit = form.handleSubmit((values) => create.mutate(values, { onError: serverErrors.place }));
 */
export function useKitForm<TIn extends FieldValues, TOut extends FieldValues, F extends string>({
  schema,
  defaultValues,
  mode,
  serverFields,
  fieldOf,
  onDirtyChange,
}: {
  schema: z.ZodMiniType<TOut, TIn>;
  defaultValues: DefaultValues<TIn>;
  mode?: Mode;
  serverFields: readonly F[];
  fieldOf?: FieldOf<TIn, F>;
  onDirtyChange?: ((dirty: boolean) => void) | undefined;
}) {
  const form = useForm<TIn, unknown, TOut>({
    resolver: zodResolver(schema),
    defaultValues,
    ...(mode ? { mode } : {}),
  });
  const serverErrors = useServerErrors(form, serverFields, fieldOf);
  useReportDirty(form.formState.isDirty, onDirtyChange);
  return { form, serverErrors, dirty: form.formState.isDirty };
}
