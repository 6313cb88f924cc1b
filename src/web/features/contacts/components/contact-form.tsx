import { useId } from 'react';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FormField } from '../../../components/form/form-field.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useContactEdit } from '../controllers/use-contact-edit.ts';
import { ContactTextInput, type ContactTextName } from './contact-inputs.tsx';

/** Edits a contact's own fields; addresses and memberships have their own sections. */
export function ContactForm({
  accountId,
  contact,
  onRenamed,
}: {
  accountId: AccountId;
  contact: Contact;
  /** The contact's API identifier changed (its ccid, spec §2.1). */
  onRenamed: (ref: string) => void;
}) {
  const {
    form,
    custom,
    save,
    update,
    dirty,
    existingKeys,
    notStored,
    knownFields,
    mayAddField,
    formError,
  } = useContactEdit(accountId, contact, onRenamed);
  const id = useId();
  const errors = form.formState.errors;
  const showCcid = contact.ccid != null;

  const register = (name: ContactTextName) => form.register(name);
  const field = (name: ContactTextName) => (
    <ContactTextInput idPrefix={id} name={name} register={register} error={errors[name]} rows={4} />
  );

  return (
    <form className="stack contact-form" onSubmit={save} noValidate aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Details</h2>
      <dl className="facts">
        <dt>Service ID</dt>
        <dd>{String(contact.id)}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={contact.created}>{new Date(contact.created).toLocaleString()}</time>
        </dd>
      </dl>
      <div className="field-row">
        {field('firstname')}
        {field('surname')}
      </div>
      {showCcid && field('ccid')}
      {field('notes')}
      <fieldset className="custom-fields">
        <legend>Custom fields</legend>
        {custom.fields.length === 0 && <p className="summary">No custom fields.</p>}
        {custom.fields.map((row, index) => {
          const keyError = errors.custom?.[index]?.key;
          const keyId = `${id}-ck-${index}`;
          const valueId = `${id}-cv-${index}`;
          const known = existingKeys.has(row.key);
          return (
            <div className="field-row" key={row.id}>
              <FormField id={keyId} label="Field" {...errorOf('The field name', keyError)}>
                {(control) => (
                  <input
                    {...control}
                    readOnly={known}
                    list={known ? undefined : `${id}-known-fields`}
                    {...form.register(`custom.${index}.key`)}
                  />
                )}
              </FormField>
              <FormField id={valueId} label="Value">
                {(control) => <input {...control} {...form.register(`custom.${index}.value`)} />}
              </FormField>
              {!known && (
                <button
                  type="button"
                  className="button small"
                  onClick={() => custom.remove(index)}
                  aria-label={`Remove the new field ${index + 1}`}
                >
                  Remove
                </button>
              )}
            </div>
          );
        })}
        <datalist id={`${id}-known-fields`}>
          {knownFields.map((key) => (
            <option key={key} value={key} />
          ))}
        </datalist>
        {mayAddField && (
          <button
            type="button"
            className="button small"
            onClick={() => custom.append({ key: '', value: '' })}
          >
            Add a custom field
          </button>
        )}
      </fieldset>
      {formError !== null && <ErrorMessage error={formError} />}
      <UnsavedChangesGuard
        dirty={dirty}
        description="This contact's details have unsaved changes. If you leave, they are lost."
      />
      <div className="actions">
        <button type="submit" className="button primary" disabled={update.isPending || !dirty}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </button>
        {update.isSuccess && !dirty && notStored.length === 0 && (
          <p role="status" className="summary">
            Saved.
          </p>
        )}
      </div>
    </form>
  );
}
