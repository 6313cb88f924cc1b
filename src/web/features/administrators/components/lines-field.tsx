import { FormField } from '../../../components/form/form-field.tsx';

/**
 * A textarea holding an array of names, one per line (form kit field). Lines are kept as typed
 * (blank ones too, so the caret never jumps); the form model trims and drops blanks when it sends
 * them.
 */
export function LinesField({
  id,
  label,
  hint,
  value,
  onChange,
  onBlur,
  error,
  announce,
}: {
  id: string;
  label: string;
  hint: string;
  value: readonly string[];
  onChange: (lines: string[]) => void;
  onBlur?: () => void;
  /** The field's error sentence, if any. */
  error?: string | undefined;
  announce?: boolean;
}) {
  return (
    <FormField id={id} label={label} hint={hint} error={error} announce={announce}>
      {(control) => (
        <textarea
          {...control}
          rows={3}
          spellCheck={false}
          value={value.join('\n')}
          onChange={(event) => onChange(event.target.value.split('\n'))}
          onBlur={onBlur}
        />
      )}
    </FormField>
  );
}
