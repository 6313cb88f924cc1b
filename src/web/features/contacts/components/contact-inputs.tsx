import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '../../../components/form/form-field.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';

/** A contact's own text fields (spec §2.1), as the create and edit forms both show them. */
export type ContactTextName = 'firstname' | 'surname' | 'ccid' | 'notes';

export const CONTACT_TEXT_FIELDS: readonly ContactTextName[] = [
  'firstname',
  'surname',
  'notes',
  'ccid',
];

const LABELS: Record<ContactTextName, string> = {
  firstname: 'First name',
  surname: 'Surname',
  ccid: 'Custom ID (ccid)',
  notes: 'Notes',
};

/**
 * One of a contact's own fields, the same input on the new-contact form and on the contact page:
 * `register` is the form's own (`(name) => form.register(name)`).
 */
export function ContactTextInput({
  idPrefix,
  name,
  register,
  error,
  labelHint,
  rows = 3,
}: {
  idPrefix: string;
  name: ContactTextName;
  register: (name: ContactTextName) => UseFormRegisterReturn;
  error: FieldError | undefined;
  labelHint?: string;
  rows?: number;
}) {
  return (
    <FormField
      id={`${idPrefix}-${name}`}
      label={
        <>
          {LABELS[name]}
          {labelHint && <span className="hint"> ({labelHint})</span>}
        </>
      }
      {...errorOf(LABELS[name], error)}
    >
      {(control) =>
        name === 'notes' ? (
          <textarea rows={rows} {...control} {...register(name)} />
        ) : (
          <input autoComplete="off" {...control} {...register(name)} />
        )
      }
    </FormField>
  );
}
