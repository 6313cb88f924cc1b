import { useId } from 'react';
import { FormActions } from '../../../components/form/form-actions.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';
import { FormField } from '../../../components/form/form-field.tsx';
import { useFieldForm } from '../controllers/use-field-form.ts';
import type { FieldFormValues } from '../model/field-form.ts';

/**
 * A custom field's name and identifier (spec §2.1), shared by define and rename; the logic is the
 * form's controller (controllers/use-field-form.ts). Says, as it is typed, the key contacts and
 * limit_metadata (spec §2.6) will name the field by.
 */
export function FieldForm({
  defaultValues,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
  onDirtyChange,
}: {
  defaultValues: FieldFormValues;
  submitLabel: string;
  pending: boolean;
  /** Resolves when saved; rejects with the server's error, which goes on its field if it names one. */
  onSubmit: (values: FieldFormValues) => Promise<unknown>;
  onCancel: () => void;
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { form, submit, formError, key } = useFieldForm({ defaultValues, onSubmit, onDirtyChange });
  const id = useId();
  const errors = form.formState.errors;
  return (
    <form className="stack" onSubmit={submit} noValidate aria-label={submitLabel}>
      <FormField
        id={`${id}-name`}
        label="Name"
        hint="What people read, e.g. Shoe size."
        {...errorOf('The name', errors.name)}
      >
        {(control) => (
          <input {...control} autoComplete="off" data-initial-focus {...form.register('name')} />
        )}
      </FormField>
      <FormField
        id={`${id}-identifier`}
        label="Identifier (optional)"
        hint="Letters, digits, _ . and - only, e.g. shoe_size. With one, contacts and limits name the field by it instead of its name."
        {...errorOf('The identifier', errors.identifier)}
      >
        {(control) => (
          <input
            {...control}
            autoComplete="off"
            spellCheck={false}
            {...form.register('identifier')}
          />
        )}
      </FormField>
      <p className="hint" aria-live="polite">
        {key === '' ? 'Contacts will show it by its name.' : `Contacts will show it as “${key}”.`}
      </p>
      <FormActions
        formError={formError}
        pending={pending}
        submitLabel={submitLabel}
        onCancel={onCancel}
      />
    </form>
  );
}
