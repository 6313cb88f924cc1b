import { zodResolver } from '../../../components/form/zod-resolver.ts';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { EmailCreate, type Email } from '../../../../api/schemas/email.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { SaveStatus } from '../../../components/form/save-status.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { keepFocusWhenRowsGo } from '../../../lib/focus-after-removal.ts';
import { useCreateEmail, useDeleteEmail, useUpdateEmail } from '../api/contact-mutations.ts';
import { FormField, errorOf } from '../../../components/form/form-field.tsx';
import { useServerErrors } from '../../../lib/form-kit.ts';

const NewAddress = z.pick(EmailCreate, { email: true, digest: true });
type NewAddress = z.input<typeof NewAddress>;

/** Spec §2.2 and §4.2: a contact's addresses, their digest and paused flags, and confirmation. */
export function EmailsSection({
  accountId,
  contactRef,
  emails,
  onContactDeleted,
}: {
  accountId: AccountId;
  contactRef: string | number;
  emails: Email[];
  onContactDeleted: () => void;
}) {
  const [deleting, setDeleting] = useState<Email | null>(null);
  const headingId = useId();

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Email addresses</h2>
      <p className="hint">The daily digest and paused boxes save as soon as they change.</p>
      <div className="table-scroll">
        <table ref={keepFocusWhenRowsGo}>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Daily digest</th>
              <th scope="col">Paused</th>
              <th scope="col">Confirmed</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {emails.map((email) => (
              <tr key={String(email.id)}>
                <th scope="row">{email.email}</th>
                {(['digest', 'paused'] as const).map((flag) => (
                  <td key={flag}>
                    <FlagCheckbox accountId={accountId} email={email} flag={flag} />
                  </td>
                ))}
                <td>{email.confirmed ? 'Yes' : 'No'}</td>
                <td>
                  <button
                    type="button"
                    className="button small danger"
                    onClick={() => setDeleting(email)}
                    aria-label={`Delete ${email.email}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AddEmailForm accountId={accountId} contactRef={contactRef} />
      <DeleteEmailDialog
        accountId={accountId}
        email={deleting}
        isLast={emails.length === 1}
        onClose={() => setDeleting(null)}
        onContactDeleted={onContactDeleted}
      />
    </section>
  );
}

/** An address's digest or paused flag, saved on change; shows the change at once. */
function FlagCheckbox({
  accountId,
  email,
  flag,
}: {
  accountId: AccountId;
  email: Email;
  flag: 'digest' | 'paused';
}) {
  const update = useUpdateEmail(accountId);
  const [shown, setShown] = useState<boolean | null>(null);
  const label = `${flag === 'digest' ? 'Daily digest' : 'Paused'} for ${email.email} (saved at once)`;
  return (
    <>
      <input
        type="checkbox"
        aria-label={label}
        checked={shown ?? email[flag]}
        disabled={update.isPending}
        onChange={(event) => {
          const checked = event.target.checked;
          setShown(checked);
          update.mutate(
            { id: email.id, input: { [flag]: checked } },
            { onSettled: () => setShown(null) },
          );
        }}
      />
      <SaveStatus state={update} />
      {update.isError && <ErrorMessage error={update.error} />}
    </>
  );
}

function AddEmailForm({
  accountId,
  contactRef,
}: {
  accountId: AccountId;
  contactRef: string | number;
}) {
  const create = useCreateEmail(accountId);
  const form = useForm<NewAddress>({
    resolver: zodResolver(NewAddress),
    defaultValues: { email: '', digest: false },
  });
  const id = useId();
  const error = form.formState.errors.email;
  const serverErrors = useServerErrors(form, ['email'] as const);
  const onSubmit = form.handleSubmit((values) => {
    serverErrors.clear();
    create.mutate(
      { ...values, contact: contactRef },
      {
        onSuccess: () => form.reset(),
        onError: (err) => {
          // The server's 409 names the address and its contact: a sentence of its own.
          if (/already belongs to contact/.test(err.message))
            form.setError('email', { type: 'server', message: err.message });
          else serverErrors.place(err);
        },
      },
    );
  });
  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Add an address">
      <FormField id={`${id}-email`} label="New address" {...errorOf('The address', error)}>
        {(control) => (
          <input {...control} type="email" autoComplete="off" {...form.register('email')} />
        )}
      </FormField>
      <div className="checkbox-field">
        <input id={`${id}-digest`} type="checkbox" {...form.register('digest')} />
        <label htmlFor={`${id}-digest`}>Daily digest</label>
      </div>
      <button type="submit" className="button" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add the address'}
      </button>
      {serverErrors.formError !== null && <ErrorMessage error={serverErrors.formError} />}
    </form>
  );
}

function DeleteEmailDialog({
  accountId,
  email,
  isLast,
  onClose,
  onContactDeleted,
}: {
  accountId: AccountId;
  email: Email | null;
  isLast: boolean;
  onClose: () => void;
  onContactDeleted: () => void;
}) {
  const remove = useDeleteEmail(accountId);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={email !== null}
      title={`Delete ${email?.email ?? ''}?`}
      confirmLabel={isLast ? 'Delete the address and the contact' : 'Delete the address'}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onClose={close}
      onConfirm={
        () =>
          email &&
          // mutateAsync: the page may unmount (its contact is gone) before this resolves.
          void remove
            .mutateAsync({ id: email.id, contact: email.contact, last: isLast })
            .then(() => {
              close();
              if (isLast) onContactDeleted();
            })
            .catch(() => undefined) // shown by remove.isError
      }
    >
      {isLast ? (
        <p className="notice">
          <strong>This is the contact’s only address.</strong> Deleting it deletes the contact too,
          with its memberships and notes. This cannot be undone.
        </p>
      ) : (
        <p>The address no longer receives list mail. This cannot be undone.</p>
      )}
    </ConfirmDialog>
  );
}
