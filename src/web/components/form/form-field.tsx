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
