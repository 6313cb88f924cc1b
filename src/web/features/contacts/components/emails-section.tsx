import { useId, useState } from 'react';
import type { Email } from '../../../../api/schemas/email.ts';
import { LazyBounces } from '../../../components/bounces/lazy-bounces.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { SaveStatus } from '../../../components/form/save-status.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { keepFocusWhenRowsGo } from '../../../lib/focus-after-removal.ts';
import { useDeleteEmail, useUpdateEmail } from '../api/contact-mutations.ts';
import { FormField } from '../../../components/form/form-field.tsx';
import { errorOf } from '../../../components/form/field-error-text.ts';
import { useAddEmail } from '../controllers/use-add-email.ts';

/**
 * Spec §2.2 and §4.2: a contact's addresses, their digest and paused flags (with the bounces that
 * paused one, issue 26 item 1), and confirmation.
 */
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
  const bounces = { accountId, scope: { contact: contactRef } };

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Email addresses</h2>
      <p className="hint">The daily digest and paused boxes save as soon as they change.</p>
      <LazyBounces {...bounces} />
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
                    {/* Why it is paused, or that it bounces (issue 26 item 1). */}
                    {flag === 'paused' && (
                      <LazyBounces {...bounces} email={email.id} address={email.email} />
                    )}
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
  const { form, submit, pending, formError } = useAddEmail(accountId, contactRef);
  const id = useId();
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-label="Add an address">
      <FormField
        id={`${id}-email`}
        label="New address"
        {...errorOf('The address', form.formState.errors.email)}
      >
        {(control) => (
          <input {...control} type="email" autoComplete="off" {...form.register('email')} />
        )}
      </FormField>
      <div className="checkbox-field">
        <input id={`${id}-digest`} type="checkbox" {...form.register('digest')} />
        <label htmlFor={`${id}-digest`}>Daily digest</label>
      </div>
      <button type="submit" className="button" disabled={pending}>
        {pending ? 'Adding…' : 'Add the address'}
      </button>
      {formError !== null && <ErrorMessage error={formError} />}
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
