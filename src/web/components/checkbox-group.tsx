import { useId } from 'react';

export interface CheckboxOption<V extends string> {
  value: V;
  label: string;
  /** One line under the label, read with it (aria-describedby). */
  meaning?: string;
  /** Shown but not to be changed (its meaning says why). */
  disabled?: boolean;
}

/**
 * A `<fieldset>` of checkboxes holding an array of values (react-hook-form's native checkbox
 * arrays turn into a boolean when there is only one box, so the array is kept here).
 */
export function CheckboxGroup<V extends string>({
  legend,
  options,
  value,
  onChange,
  describedBy,
}: {
  legend: string;
  options: readonly CheckboxOption<V>[];
  value: readonly V[];
  onChange: (value: V[]) => void;
  describedBy?: string;
}) {
  const id = useId();
  const toggle = (option: V, checked: boolean) => {
    const others = value.filter((v) => v !== option);
    onChange(checked ? [...others, option] : others);
  };
  return (
    <fieldset className="checkbox-group" aria-describedby={describedBy}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <div key={option.value} className="checkbox-field checkbox-option">
          <input
            id={`${id}-${option.value}`}
            type="checkbox"
            checked={value.includes(option.value)}
            disabled={option.disabled}
            onChange={(event) => toggle(option.value, event.target.checked)}
            aria-describedby={option.meaning ? `${id}-${option.value}-meaning` : undefined}
          />
          <div>
            <label htmlFor={`${id}-${option.value}`}>{option.label}</label>
            {option.meaning && (
              <p id={`${id}-${option.value}-meaning`} className="hint">
                {option.meaning}
              </p>
            )}
          </div>
        </div>
      ))}
    </fieldset>
  );
}
