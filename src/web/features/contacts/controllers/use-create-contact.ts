import { useRef, type FormEvent } from 'react';
import { useFieldArray } from 'react-hook-form';
import * as z from 'zod/mini';
import { EmailAddress, ListName } from '../../../../api/primitives.ts';
import { ContactCreate, type Contact } from '../../../../api/schemas/contact.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { useReachableLists } from '../../../lib/reach.ts';
import { useCreateContact } from '../api/contact-mutations.ts';

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

const SERVER_FIELDS = ['firstname', 'surname', 'ccid', 'notes', 'emails', 'lists'] as const;

/**
 * The new-contact form's controller (logic apart from the view, as react-admin's ra-core does):
 * the form with its address rows, the lists to offer, and the create, whose refusal goes on the
 * field it names (an address in use on that address's row) or above the button.
 */
export function useCreateContactForm(accountId: AccountId, onCreated: (contact: Contact) => void) {
  const create = useCreateContact(accountId);
  const lists = useReachableLists(accountId);
  const { form, serverErrors, dirty } = useKitForm({
    schema: NewContact,
    defaultValues: {
      firstname: '',
      surname: '',
      notes: '',
      ccid: '',
      emails: [{ address: '' }],
      lists: [],
    },
    serverFields: SERVER_FIELDS,
    fieldOf: (field, found, values) => {
      if (field !== 'emails') return field;
      const typed = values.emails.map((e) => e.address.trim().toLowerCase());
      const index = typed.indexOf(found.address?.toLowerCase() ?? '');
      return `emails.${Math.max(0, index)}.address`;
    },
  });
  const emails = useFieldArray({ control: form.control, name: 'emails' });
  // Set once created: moving on to its page loses nothing (the unsaved-changes guard lets go).
  const leaving = useRef(false);

  // Built at submit time, not during render: the callback sets the `leaving` ref.
  const submit = (event: FormEvent) =>
    void form.handleSubmit((values) => {
      serverErrors.clear();
      create.mutate(toCreateBody(values), {
        onSuccess: (contact) => {
          leaving.current = true;
          onCreated(contact);
        },
        onError: (error) => void serverErrors.place(error),
      });
    })(event);

  return {
    form,
    emails,
    lists,
    submit,
    leaving,
    dirty,
    pending: create.isPending,
    formError: serverErrors.formError,
  };
}
