import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import * as z from 'zod';
import { ContactUpdate, customFieldsOf, type Contact } from '../../../../api/schemas/contact.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useUpdateContact } from '../api/contact-mutations.ts';
import { contactRef } from '../../../lib/contact-queries.ts';
import { serverFieldError } from '../../../lib/server-field-error.ts';

/** The editable fields of spec §2.1, with the contract's rules; custom fields as key and value. */
const ContactEdit = z.object({
  firstname: z.string(),
  surname: z.string(),
  notes: z.string(),
  ccid: z.string(),
  custom: z.array(
    z.object({
      key: z.string().trim().min(1, 'is required').max(100, 'has at most 100 characters'),
      value: z.string(),
    }),
  ),
});
type ContactEdit = z.infer<typeof ContactEdit>;

function toForm(contact: Contact): ContactEdit {
  return {
    firstname: contact.firstname,
    surname: contact.surname,
    notes: contact.notes,
    ccid: contact.ccid ?? '',
    custom: Object.entries(customFieldsOf(contact)).map(([key, value]) => ({ key, value })),
  };
}

/** Only what changed (spec §1 rule 6): a PUT body never repeats an unchanged field. */
export function changedFields(before: ContactEdit, after: ContactEdit): ContactUpdate {
  const body: Record<string, unknown> = {};
  for (const field of ['firstname', 'surname', 'notes'] as const) {
    if (after[field] !== before[field]) body[field] = after[field];
  }
  if (after.ccid !== before.ccid) body.ccid = after.ccid.trim() === '' ? null : after.ccid.trim();
  const old = new Map(before.custom.map(({ key, value }) => [key, value]));
  for (const { key, value } of after.custom) {
    const name = key.trim();
    if (old.get(name) !== value) body[name] = value;
  }
  return body;
}

const FIELDS = ['firstname', 'surname', 'notes', 'ccid'] as const;
const LABELS = {
  firstname: 'First name',
  surname: 'Surname',
  notes: 'Notes',
  ccid: 'Custom ID (ccid)',
};

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
  const ref = contactRef(contact);
  const update = useUpdateContact(accountId, ref);
  const initial = toForm(contact);
  const form = useForm<ContactEdit>({
    resolver: zodResolver(ContactEdit),
    defaultValues: initial,
  });
  const custom = useFieldArray({ control: form.control, name: 'custom' });
  const id = useId();
  const errors = form.formState.errors;
  const showCcid = contact.ccid != null;
  const existingKeys = new Set(initial.custom.map((field) => field.key));

  const onSubmit = form.handleSubmit((values) => {
    const body = changedFields(form.formState.defaultValues as ContactEdit, values);
    if (Object.keys(body).length === 0) return;
    const parsed = ContactUpdate.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = FIELDS.find((f) => f === issue?.path[0]);
      if (field) form.setError(field, { message: issue?.message ?? 'is not valid' });
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        form.reset(toForm(saved));
        const newRef = contactRef(saved);
        if (String(newRef) !== String(ref)) onRenamed(String(newRef));
      },
      onError: (error) => {
        const found = serverFieldError(error, FIELDS);
        if (found) form.setError(found.field, { message: found.message });
      },
    });
  });

  const field = (name: (typeof FIELDS)[number], multiline = false) => {
    const error = errors[name];
    const props = {
      id: `${id}-${name}`,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-${name}-error` : undefined,
      ...form.register(name),
    };
    return (
      <div className="field">
        <label htmlFor={props.id}>{LABELS[name]}</label>
        {multiline ? <textarea rows={4} {...props} /> : <input autoComplete="off" {...props} />}
        {error && (
          <p id={`${id}-${name}-error`} className="field-error">
            {LABELS[name]} {error.message}.
          </p>
        )}
      </div>
    );
  };

  return (
    <form className="stack contact-form" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-h`}>
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
      {field('notes', true)}
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
              <div className="field">
                <label htmlFor={keyId}>Field</label>
                <input
                  id={keyId}
                  readOnly={known}
                  aria-invalid={keyError ? true : undefined}
                  aria-describedby={keyError ? `${keyId}-error` : undefined}
                  {...form.register(`custom.${index}.key`)}
                />
                {keyError && (
                  <p id={`${keyId}-error`} className="field-error">
                    The field name {keyError.message}.
                  </p>
                )}
              </div>
              <div className="field">
                <label htmlFor={valueId}>Value</label>
                <input id={valueId} {...form.register(`custom.${index}.value`)} />
              </div>
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
        <button
          type="button"
          className="button small"
          onClick={() => custom.append({ key: '', value: '' })}
        >
          Add a custom field
        </button>
      </fieldset>
      {update.isError && !serverFieldError(update.error, FIELDS) && (
        <ErrorMessage error={update.error} />
      )}
      <div className="actions">
        <button
          type="submit"
          className="button primary"
          disabled={update.isPending || !form.formState.isDirty}
        >
          {update.isPending ? 'Saving…' : 'Save changes'}
        </button>
        {update.isSuccess && !form.formState.isDirty && (
          <p role="status" className="summary">
            Saved.
          </p>
        )}
      </div>
    </form>
  );
}
