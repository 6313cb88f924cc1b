import { useId, useRef, useState, type ReactNode } from 'react';
import {
  useController,
  useFormContext,
  useFormState,
  useWatch,
  type FieldErrors,
} from 'react-hook-form';
import type { Choice } from '../../model/choices.ts';
import { FormField } from '../../../../components/form/form-field.tsx';
import {
  errorOf,
  fieldErrorText,
  type FieldProblem,
} from '../../../../components/form/field-error-text.ts';
import { insertAt, type ListSettingsValues } from '../../model/list-form.ts';

type Name = Extract<keyof ListSettingsValues, string>;

type ErrorTree = Record<string, FieldProblem | undefined>;

/** The errors of one top-level field (an array field's entries are keyed by index). */
function errorsOf(errors: FieldErrors<ListSettingsValues>, name: string) {
  return (errors as unknown as Record<string, (ErrorTree & FieldProblem) | undefined>)[name];
}

interface FieldProps {
  name: Name;
  label: string;
  help: ReactNode;
}

/** A field's error as the form holds it (by name: line lists and choices register no input). */
function useFieldProblem(name: string): FieldProblem | undefined {
  const { errors } = useFormState<ListSettingsValues>();
  return errorsOf(errors, name);
}

/**
 * The error of a field as a sentence (form kit): the contract's messages follow the field's label
 * ("is not a valid email address"); a server's own sentence stands alone.
 */
export function useFieldError(name: string, subject: string): string | undefined {
  return fieldErrorText(subject, useFieldProblem(name));
}

/** A text field; `nullWhenEmpty` stores null for an empty value (reply_to). */
export function TextField({
  name,
  label,
  help,
  multiline,
  nullWhenEmpty,
  type = 'text',
}: FieldProps & { multiline?: boolean; nullWhenEmpty?: boolean; type?: 'text' | 'email' }) {
  const { register } = useFormContext<ListSettingsValues>();
  const id = useId();
  const registration = register(
    name,
    nullWhenEmpty ? { setValueAs: (v: string) => (v === '' ? null : v) } : {},
  );
  return (
    <FormField id={id} label={label} hint={help} {...errorOf(label, useFieldProblem(name))}>
      {(control) =>
        multiline ? (
          <textarea rows={4} {...control} {...registration} />
        ) : (
          <input type={type} autoComplete="off" {...control} {...registration} />
        )
      }
    </FormField>
  );
}

/** A whole-number field; `nullWhenEmpty` stores null for an empty value (truncate). */
export function NumberField({
  name,
  label,
  help,
  nullWhenEmpty,
}: FieldProps & { nullWhenEmpty?: boolean }) {
  const { register } = useFormContext<ListSettingsValues>();
  const id = useId();
  return (
    <FormField id={id} label={label} hint={help} {...errorOf(label, useFieldProblem(name))}>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          {...register(name, {
            setValueAs: (v: string | number | null) =>
              v === '' || v === null ? (nullWhenEmpty ? null : Number.NaN) : Number(v),
          })}
        />
      )}
    </FormField>
  );
}

export function CheckboxField({ name, label, help }: FieldProps) {
  const { register } = useFormContext<ListSettingsValues>();
  const id = useId();
  return (
    <div>
      <div className="checkbox-field">
        <input id={id} type="checkbox" aria-describedby={`${id}-hint`} {...register(name)} />
        <label htmlFor={id}>{label}</label>
      </div>
      <p id={`${id}-hint`} className="hint">
        {help}
      </p>
    </div>
  );
}

/** A select over fixed values, some of which may be null ("use the account setting"). */
export function ChoiceField<T extends string | number | null>({
  name,
  label,
  help,
  choices,
}: FieldProps & { choices: Choice<T>[] }) {
  const {
    field: { value, onChange, onBlur },
  } = useController<ListSettingsValues>({ name });
  const id = useId();
  const index = choices.findIndex((choice) => choice.value === value);
  return (
    <FormField id={id} label={label} hint={help} {...errorOf(label, useFieldProblem(name))}>
      {(control) => (
        <select
          {...control}
          name={name}
          value={index === -1 ? 'unknown' : String(index)}
          onBlur={onBlur}
          onChange={(event) => onChange(choices[Number(event.target.value)]?.value)}
        >
          {index === -1 && <option value="unknown">Unknown value ({JSON.stringify(value)})</option>}
          {choices.map((choice, i) => (
            <option key={String(choice.value)} value={String(i)}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

const NO_LINES: string[] = [];

/** Lines of a textarea, remembering which line each non-empty entry came from. */
function parseLines(text: string, trim: boolean) {
  const entries: { value: string; line: number }[] = [];
  text.split('\n').forEach((raw, index) => {
    const value = trim ? raw.trim() : raw.replace(/\r$/, '');
    if (value.trim() !== '') entries.push({ value, line: index + 1 });
  });
  return entries;
}

/**
 * An array of addresses or regular expressions, one a line; each line is checked by the contract's
 * schema as it is typed, and its error names the line.
 */
export function LineListField({
  name,
  label,
  help,
  kind,
}: FieldProps & { kind: 'address' | 'regex' }) {
  const { setValue } = useFormContext<ListSettingsValues>();
  const value = (useWatch<ListSettingsValues>({ name }) as string[] | undefined) ?? NO_LINES;
  const [text, setText] = useState(() => value.join('\n'));
  const trim = kind === 'address';
  const entries = parseLines(text, trim);
  // The value changed from outside (reset after saving, settings copied): show it. Compared once
  // per new value, so a value the lines cannot represent (an empty entry) cannot loop.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    if (JSON.stringify(entries.map((e) => e.value)) !== JSON.stringify(value)) {
      setText(value.join('\n'));
    }
  }
  const { errors } = useFormState<ListSettingsValues>({ name });
  const fieldErrors = errorsOf(errors, name);
  const messages: string[] = [];
  const whole = fieldErrorText(label, fieldErrors);
  if (whole) messages.push(whole);
  entries.forEach((entry, index) => {
    const message = fieldErrors?.[String(index)]?.message;
    if (message) messages.push(`Line ${entry.line} (${entry.value}) ${message}.`);
  });
  const id = useId();
  const error = messages.length > 0 ? messages.join(' ') : undefined;
  return (
    <FormField
      id={id}
      label={label}
      hint={help}
      error={error}
      announce={fieldErrors?.type === 'server'}
    >
      {(control) => (
        <textarea
          {...control}
          name={name}
          rows={4}
          spellCheck={false}
          className={kind === 'regex' ? 'code' : undefined}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setValue(
              name,
              parseLines(event.target.value, trim).map((entry) => entry.value),
              { shouldDirty: true, shouldValidate: true },
            );
          }}
        />
      )}
    </FormField>
  );
}

/** A text field with buttons that insert `$SUBJECT` / `$LISTNAME` at the cursor. */
export function TokenTextField({
  name,
  label,
  help,
  tokens,
  multiline,
}: FieldProps & { tokens: string[]; multiline?: boolean }) {
  const { register, getValues, setValue } = useFormContext<ListSettingsValues>();
  const element = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  const id = useId();
  const registration = register(name);
  const setRefs = (node: HTMLInputElement | HTMLTextAreaElement | null) => {
    element.current = node;
    registration.ref(node);
  };
  const insert = (token: string) => {
    const node = element.current;
    const current = String(getValues(name) ?? '');
    const next = insertAt(current, token, node?.selectionStart ?? null, node?.selectionEnd ?? null);
    setValue(name, next.text, { shouldDirty: true, shouldValidate: true });
    if (node) {
      node.focus();
      node.setSelectionRange(next.caret, next.caret);
    }
  };
  const events = {
    name: registration.name,
    onChange: registration.onChange,
    onBlur: registration.onBlur,
  };
  return (
    <FormField id={id} label={label} hint={help} {...errorOf(label, useFieldProblem(name))}>
      {(control) => (
        <>
          {multiline ? (
            <textarea rows={4} ref={setRefs} {...control} {...events} />
          ) : (
            <input ref={setRefs} {...control} {...events} />
          )}
          <div className="actions token-buttons">
            {tokens.map((token) => (
              <button
                key={token}
                type="button"
                className="button small"
                onClick={() => insert(token)}
              >
                Insert {token}
                <span className="visually-hidden"> into {label}</span>
              </button>
            ))}
          </div>
        </>
      )}
    </FormField>
  );
}
