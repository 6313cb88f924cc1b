import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { customFieldQueries } from '../../../lib/custom-field-queries.ts';
import { NOT_STORED } from '../../../lib/ignored-fields.ts';
import * as z from 'zod/mini';
import { ContactUpdate, customFieldsOf, type Contact } from '../../../../api/schemas/contact.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { reachesField } from '../../../lib/reach.ts';
import { useUpdateContact } from '../api/update-contact.ts';
import { contactRef } from '../../../lib/contact-queries.ts';

/** The editable fields of spec §2.1, with the contract's rules; custom fields as key and value. */
const ContactEdit = z.object({
  firstname: z.string(),
  surname: z.string(),
  notes: z.string(),
  ccid: z.string(),
  custom: z.array(
    z.object({
      key: z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'is required'),
          z.maxLength(100, 'has at most 100 characters'),
        ),
      value: z.string(),
    }),
  ),
});
export type ContactEdit = z.infer<typeof ContactEdit>;

export const CONTACT_FIELDS = ['firstname', 'surname', 'notes', 'ccid'] as const;

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
  for (const field of CONTACT_FIELDS) {
    if (field !== 'ccid' && after[field] !== before[field]) body[field] = after[field];
  }
  if (after.ccid !== before.ccid) body.ccid = after.ccid.trim() === '' ? null : after.ccid.trim();
  const old = new Map(before.custom.map(({ key, value }) => [key, value]));
  for (const { key, value } of after.custom) {
    const name = key.trim();
    if (old.get(name) !== value) body[name] = value;
  }
  return body;
}

/**
 * The contact page's controller (logic apart from the view, as react-admin's ra-core does): the
 * form, its dirty state for the unsaved-changes guard, and the save that sends only what
 * changed, puts the server's refusals on their fields and follows a changed ccid.
 */
export function useContactEdit(
  accountId: AccountId,
  contact: Contact,
  onRenamed: (ref: string) => void,
) {
  const ref = contactRef(contact);
  const update = useUpdateContact(accountId, ref);
  const initial = toForm(contact);
  const { form, serverErrors, dirty } = useKitForm({
    schema: ContactEdit,
    defaultValues: initial,
    serverFields: CONTACT_FIELDS,
  });
  const custom = useFieldArray({ control: form.control, name: 'custom' });
  // The fields the last save sent and the server did not store (X-Ignored-Fields).
  const [notStored, setNotStored] = useState<string[]>([]);
  const knownFields = useQuery(customFieldQueries.known(accountId));
  const powers = usePermissions();
  const existingKeys = new Set(initial.custom.map((field) => field.key));
  // Spec §2.6 limit_metadata: a limited principal writes only its own custom fields.
  const fieldLimit = powers.known ? powers.limitMetadata : null;

  const save = form.handleSubmit((values) => {
    serverErrors.clear();
    setNotStored([]);
    const outside = values.custom.findIndex(
      ({ key }) => !existingKeys.has(key.trim()) && !reachesField(powers, key.trim()),
    );
    if (outside !== -1) {
      form.setError(`custom.${outside}.key`, {
        message: `is not one of the custom fields you are limited to (${fieldLimit?.join(', ') ?? ''})`,
      });
      return;
    }
    const body = changedFields(form.formState.defaultValues as ContactEdit, values);
    if (Object.keys(body).length === 0) return;
    const parsed = ContactUpdate.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = CONTACT_FIELDS.find((f) => f === issue?.path[0]);
      if (field) form.setError(field, { message: issue?.message ?? 'is not valid' });
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: ({ contact: saved, ignored }) => {
        form.reset(toForm(saved));
        // What the server did not store stays on the form, its field saying so (never "Saved").
        const notStored = ignored.filter((name) => name in parsed.data);
        setNotStored(notStored);
        for (const name of notStored) {
          const field = CONTACT_FIELDS.find((standard) => standard === name);
          if (field) {
            form.setValue(field, values[field], { shouldDirty: true });
            form.setError(field, { type: 'server', message: NOT_STORED });
            continue;
          }
          const index = form.getValues('custom').length;
          custom.append({
            key: name,
            value: values.custom.find((row) => row.key.trim() === name)?.value ?? '',
          });
          form.setError(`custom.${index}.key`, { type: 'server', message: NOT_STORED });
        }
        const newRef = contactRef(saved);
        if (String(newRef) !== String(ref)) onRenamed(String(newRef));
      },
      onError: (error) => void serverErrors.place(error),
    });
  });

  return {
    form,
    custom,
    save,
    update,
    dirty,
    existingKeys,
    notStored,
    /** The custom fields the account is known to have (lib/custom-field-queries.ts), to offer. */
    knownFields: (knownFields.data ?? []).filter(
      (key) => !existingKeys.has(key) && reachesField(powers, key),
    ),
    /** A custom field may be added: any, or one of the limit not on the contact yet. */
    mayAddField: fieldLimit === null || fieldLimit.some((key) => !existingKeys.has(key)),
    /** A refusal no field carries: shown above the buttons. */
    formError: serverErrors.formError,
  };
}
