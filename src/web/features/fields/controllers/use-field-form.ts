import { useWatch } from 'react-hook-form';
import { useKitForm } from '../../../lib/form-kit.ts';
import {
  FIELD_FORM_FIELDS,
  FieldFormValues,
  keyOf,
  type FieldFormValues as Values,
} from '../model/field-form.ts';

/**
 * The field form's controller, shared by define and rename: the contract's rules as it is typed,
 * the key the field will have (what contacts and limits will name it by), and the save, whose
 * refusal (`name: … already exists`) goes on the field it names or above the buttons.
 */
export function useFieldForm({
  defaultValues,
  onSubmit,
  onDirtyChange,
}: {
  defaultValues: Values;
  onSubmit: (values: Values) => Promise<unknown>;
  onDirtyChange: ((dirty: boolean) => void) | undefined;
}) {
  const { form, serverErrors } = useKitForm({
    schema: FieldFormValues,
    defaultValues,
    serverFields: FIELD_FORM_FIELDS,
    onDirtyChange,
  });
  const values = useWatch({ control: form.control });
  const submit = form.handleSubmit(async (submitted) => {
    serverErrors.clear();
    try {
      await onSubmit(submitted);
    } catch (error) {
      serverErrors.place(error);
    }
  });
  return {
    form,
    submit,
    formError: serverErrors.formError,
    key: keyOf({ name: values.name ?? '', identifier: values.identifier ?? '' }),
  };
}
