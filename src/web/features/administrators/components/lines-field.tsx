import type { ReactNode } from 'react';

/**
 * A textarea holding an array of names, one per line. Lines are kept as typed (blank ones too,
 * so the caret never jumps); the form model trims and drops blanks when it sends them.
 */
export function LinesField({
  id,
  label,
  hint,
  value,
  onChange,
  onBlur,
  error,
  errorId,
}: {
  id: string;
  label: string;
  hint: string;
  value: readonly string[];
  onChange: (lines: string[]) => void;
  onBlur?: () => void;
  /** The field's error paragraph (its id is `errorId`), if any. */
  error?: ReactNode;
  errorId?: string | undefined;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        spellCheck={false}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId ?? '', `${id}-hint`].filter(Boolean).join(' ')}
        value={value.join('\n')}
        onChange={(event) => onChange(event.target.value.split('\n'))}
        onBlur={onBlur}
      />
      <p id={`${id}-hint`} className="hint">
        {hint}
      </p>
      {error}
    </div>
  );
}
