import '../contacts.css';
import { zodResolver } from '../../../components/form/zod-resolver.ts';
import { useId, useRef, type FormEvent } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { EmailAddress, ListName } from '../../../../api/primitives.ts';
import { ContactCreate, type Contact } from '../../../../api/schemas/contact.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useCreateContact } from '../api/contact-mutations.ts';
import { FormField, errorOf } from '../../../components/form/form-field.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import { useServerErrors } from '../../../lib/form-kit.ts';
import { isCcidConflict } from '../lib/ccid-conflict.ts';
import { useReachableLists } from '../../../lib/reach.ts';

/** The contract's rules (spec §4.1 create) in the form's shape: addresses as rows. */
const NewContact = z.object({
  firstname: z.string(),
  surname: z.string(),
  notes: z.string(),
  ccid: z.string(),
  emails: z
    .array(z.object({ address: EmailAddress }))
    .check(z.minLength(1, 'needs at least one email address')),
  lists: z.array(ListName),
});
type NewContact = z.infer<typeof NewContact>;

export function toCreateBody(values: NewContact): ContactCreate {
  const body: ContactCreate = { emails: values.emails.map((e) => e.address.trim()) };
  if (values.firstname) body.firstname = values.firstname;
  if (values.surname) body.surname = values.surname;
  if (values.notes) body.notes = values.notes;
  if (values.ccid.trim()) body.ccid = values.ccid.trim();
  if (values.lists.length > 0) body.lists = values.lists;
  return ContactCreate.parse(body);
}

const TEXT_FIELDS = ['firstname', 'surname', 'ccid', 'notes'] as const;
const SERVER_FIELDS = [...TEXT_FIELDS, 'emails', 'lists'] as const;
const LABELS = {
  firstname: 'First name',
  surname: 'Surname',
  ccid: 'Custom ID (ccid)',
  notes: 'Notes',
};

/** A new contact with one or more addresses and lists, in one request (spec §4.1 create). */
export function CreateContactForm({
  accountId,
  onCreated,
}: {
  accountId: AccountId;
  onCreated: (contact: Contact) => void;
}) {
  const create = useCreateContact(accountId);
  const lists = useReachableLists(accountId);
  const form = useForm<NewContact>({
    resolver: zodResolver(NewContact),
    defaultValues: {
      firstname: '',
      surname: '',
      notes: '',
      ccid: '',
      emails: [{ address: '' }],
      lists: [],
    },
  });
  const emails = useFieldArray({ control: form.control, name: 'emails' });
  const id = useId();
  const errors = form.formState.errors;
  const leaving = useRef(false);
  const serverErrors = useServerErrors(form, SERVER_FIELDS, (field) =>
    field === 'emails' ? 'emails.0.address' : field,
  );

  // Built at submit time, not during render: the callback sets the `leaving` ref.
  const onSubmit = (event: FormEvent) =>
    void form.handleSubmit((values) => {
      serverErrors.clear();
      create.mutate(toCreateBody(values), {
        onSuccess: (contact) => {
          // Created: moving on to its page loses nothing.
          leaving.current = true;
          onCreated(contact);
        },
        onError: (error) => {
          if (isCcidConflict(error)) {
            form.setError('ccid', {
              message:
                'is already the custom ID of another contact of this account; choose another, or edit that contact instead',
            });
            return;
          }
          const taken = /^(\S+@\S+) already belongs to contact (.+)$/.exec(
            error instanceof Error ? error.message : '',
          );
          if (taken) {
            const index = values.emails.findIndex(
              (e) => e.address.trim().toLowerCase() === taken[1]?.toLowerCase(),
            );
            form.setError(`emails.${Math.max(0, index)}.address`, {
              message: `already belongs to another contact (${taken[2] ?? ''})`,
            });
            return;
          }
          serverErrors.place(error);
        },
      });
    })(event);

  const textField = (name: (typeof TEXT_FIELDS)[number]) => (
    <FormField
      id={`${id}-${name}`}
      label={
        <>
          {LABELS[name]}
          {name === 'ccid' && <span className="hint"> (only where the account uses them)</span>}
        </>
      }
      {...errorOf(LABELS[name], errors[name])}
    >
      {(control) =>
        name === 'notes' ? (
          <textarea rows={3} {...control} {...form.register(name)} />
        ) : (
          <input autoComplete="off" {...control} {...form.register(name)} />
        )
      }
    </FormField>
  );

  return (
    <form className="stack contact-form" onSubmit={onSubmit} noValidate aria-label="New contact">
      <div className="field-row">
        {textField('firstname')}
        {textField('surname')}
      </div>
      <fieldset>
        <legend>Email addresses</legend>
        {emails.fields.map((row, index) => {
          const error = errors.emails?.[index]?.address;
          const inputId = `${id}-email-${index}`;
          return (
            <div className="field-row" key={row.id}>
              <FormField
                id={inputId}
                label={index === 0 ? 'Address' : `Address ${index + 1}`}
                {...errorOf('The address', error)}
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
          );
        })}
        {errors.emails?.root && <p className="field-error">{errors.emails.root.message}</p>}
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
        {errors.lists && (
          <p id={`${id}-lists-error`} className="field-error">
            {errors.lists.message}
          </p>
        )}
      </fieldset>
      {textField('ccid')}
      {textField('notes')}
      {serverErrors.formError !== null && <ErrorMessage error={serverErrors.formError} />}
      <UnsavedChangesGuard
        dirty={form.formState.isDirty}
        leaving={leaving}
        description="This new contact is not created yet. If you leave, what you typed is lost."
      />
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create the contact'}
        </button>
      </div>
    </form>
  );
}
