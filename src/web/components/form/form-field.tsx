import type { ReactNode } from 'react';

/** What a control needs to be labelled and to carry its error and hint (form kit). */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * The form kit's field: a label, the control, a hint and the error on the field itself (read with
 * the control through aria-describedby). `error` is the problem after the label: "is required"
 * shows as "First name is required." Every form of the dashboard builds its fields with it.
 */
export function FormField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** "First name" + "is required" → "First name is required." */
export function fieldErrorText(label: string, problem: string | undefined): string | undefined {
  return problem ? `${label} ${problem}.` : undefined;
}
