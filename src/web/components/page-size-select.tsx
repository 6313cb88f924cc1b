import { useId } from 'react';
import { FormField } from './form/form-field.tsx';

/** "Per page": how many rows a table asks the server for at once (the sizes the spec allows). */
export function PageSizeSelect<S extends number>({
  sizes,
  value,
  onChange,
}: {
  sizes: readonly S[];
  value: S;
  onChange: (size: S) => void;
}) {
  const id = useId();
  return (
    <FormField id={id} label="Per page">
      {(control) => (
        <select
          {...control}
          value={value}
          onChange={(event) =>
            onChange(sizes.find((size) => size === Number(event.target.value)) ?? value)
          }
        >
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
