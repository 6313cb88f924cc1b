import type { ReactNode } from 'react';

/** What a control needs to be labelled and to carry its error and hint (form kit). */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * The form kit's field: a label, the control, a hint and the error on the field itself (read with
 * the control through aria-describedby). `error` is the sentence shown (see `errorOf`); `announce`
 * makes it an alert, for a refusal that arrives after submitting rather than while typing.
 * `describedBy` and `after` add what else describes the control (a warning shown as it is typed).
 * Every form of the dashboard builds its fields with it.
 */
export function FormField({
  id,
  label,
  error,
  announce = false,
  hint,
  describedBy,
  after,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  announce?: boolean;
  hint?: ReactNode;
  describedBy?: string | undefined;
  after?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const ids = [error ? errorId : '', describedBy ?? '', hint ? hintId : ''].filter(Boolean);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': ids.join(' ') || undefined,
      })}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      <FieldError id={errorId} error={error} announce={announce} />
      {after}
    </div>
  );
}

/**
 * The error paragraph of the form kit, for a group the control of which is not one input (a set
 * of checkboxes): `id` is what the group's aria-describedby names.
 */
export function FieldError({
  id,
  error,
  announce = false,
}: {
  id: string;
  error: string | undefined;
  announce?: boolean;
}) {
  if (!error) return null;
  return (
    <p id={id} className="field-error" role={announce ? 'alert' : undefined}>
      {error}
    </p>
  );
}
