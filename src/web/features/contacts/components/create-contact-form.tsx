import '../contacts.css';
import { useId } from 'react';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FieldError, FormField } from '../../../components/form/form-field.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';
import { FormActions } from '../../../components/form/form-actions.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useCreateContactForm } from '../controllers/use-create-contact.ts';
import { ContactTextInput } from './contact-inputs.tsx';

/** A new contact with one or more addresses and lists, in one request (spec §4.1 create). */
export function CreateContactForm({
  accountId,
  onCreated,
}: {
  accountId: AccountId;
  onCreated: (contact: Contact) => void;
}) {
  const { form, emails, lists, submit, leaving, dirty, pending, formError } = useCreateContactForm(
    accountId,
    onCreated,
  );
  const id = useId();
  const errors = form.formState.errors;
  const register = (name: 'firstname' | 'surname' | 'ccid' | 'notes') => form.register(name);

  return (
    <form className="stack contact-form" onSubmit={submit} noValidate aria-label="New contact">
      <div className="field-row">
        <ContactTextInput
          idPrefix={id}
          name="firstname"
          register={register}
          error={errors.firstname}
        />
        <ContactTextInput idPrefix={id} name="surname" register={register} error={errors.surname} />
      </div>
      <fieldset>
        <legend>Email addresses</legend>
        {emails.fields.map((row, index) => (
          <div className="field-row" key={row.id}>
            <FormField
              id={`${id}-email-${index}`}
              label={index === 0 ? 'Address' : `Address ${index + 1}`}
              {...errorOf('The address', errors.emails?.[index]?.address)}
            >
              {(control) => (
                <input
                  {...control}
                  type="email"
                  autoComplete="off"
                  {...form.register(`emails.${index}.address`)}
                />
              )}
            </FormField>
            {emails.fields.length > 1 && (
              <button
                type="button"
                className="button small"
                onClick={() => emails.remove(index)}
                aria-label={`Remove address ${index + 1}`}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        <FieldError id={`${id}-emails-error`} error={errors.emails?.root?.message} />
        <button
          type="button"
          className="button small"
          onClick={() => emails.append({ address: '' })}
        >
          Add another address
        </button>
      </fieldset>
      <fieldset aria-describedby={errors.lists ? `${id}-lists-error` : undefined}>
        <legend>Lists</legend>
        {lists.isPending && <p className="summary">Loading lists…</p>}
        {lists.isError && <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />}
        {lists.data?.length === 0 && <p className="summary">The account has no lists yet.</p>}
        <div className="checkbox-grid">
          {lists.data?.map((list) => (
            <div className="checkbox-field" key={list.name}>
              <input
                id={`${id}-list-${list.name}`}
                type="checkbox"
                value={list.name}
                {...form.register('lists')}
              />
              <label htmlFor={`${id}-list-${list.name}`}>{list.name}</label>
            </div>
          ))}
        </div>
        <FieldError id={`${id}-lists-error`} error={errors.lists?.message} />
      </fieldset>
      <ContactTextInput
        idPrefix={id}
        name="ccid"
        register={register}
        error={errors.ccid}
        labelHint="only where the account uses them"
      />
      <ContactTextInput idPrefix={id} name="notes" register={register} error={errors.notes} />
      <UnsavedChangesGuard
        dirty={dirty}
        leaving={leaving}
        description="This new contact is not created yet. If you leave, what you typed is lost."
      />
      <FormActions
        formError={formError}
        pending={pending}
        submitLabel="Create the contact"
        pendingLabel="Creating…"
      />
    </form>
  );
}
