import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Account } from '../../../../api/schemas/account.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { lazyForm } from '../../../components/form/lazy-form.tsx';
import { useDeleteAccount } from '../api/account-mutations.ts';
import { accountQueries } from '../api/account-queries.ts';

// The forms load when their dialog first opens (issue 17 item 9): the accounts page itself has
// no form.
export const LazyCreateAccountForm = lazyForm(() =>
  import('./account-forms.tsx').then((forms) => forms.CreateAccountForm),
);
const LazyAccountSettings = lazyForm(() =>
  import('./account-forms.tsx').then((forms) => forms.AccountSettings),
);

/** Spec §4.7 create: name, description, initial domain and initial administrator. */
export function CreateAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  // Typed and not created yet: Escape and the close button ask first (form kit).
  const [dirty, setDirty] = useState(false);
  const close = () => {
    setDirty(false);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title="New account" dirty={dirty}>
      <LazyCreateAccountForm onDone={close} onDirtyChange={setDirty} />
    </Dialog>
  );
}

/** Spec §4.7 update of every §2.7 field; the details are read when the dialog opens. */
export function EditAccountDialog({
  account,
  onClose,
}: {
  account: Account | null;
  onClose: () => void;
}) {
  // Edited and not saved: Escape and the close button ask first (form kit).
  const [dirty, setDirty] = useState(false);
  const close = () => {
    setDirty(false);
    onClose();
  };
  return (
    <Dialog
      open={account !== null}
      onClose={close}
      title={`Settings of ${account?.name ?? ''}`}
      className="wide"
      dirty={dirty}
    >
      {account && <AccountDetails account={account} onDone={close} onDirtyChange={setDirty} />}
    </Dialog>
  );
}

/** The details are read as the form's code loads. */
function AccountDetails({
  account,
  onDone,
  onDirtyChange,
}: {
  account: Account;
  onDone: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const detail = useQuery(accountQueries.detail(account.id));
  useEffect(() => void LazyAccountSettings.preload(), []);
  if (detail.isPending) return <p role="status">Loading the account’s settings…</p>;
  if (detail.isError)
    return <ErrorMessage error={detail.error} onRetry={() => void detail.refetch()} />;
  return (
    <LazyAccountSettings account={detail.data} onDone={onDone} onDirtyChange={onDirtyChange} />
  );
}

/** Spec §4.7 delete cascades to everything in the account: the name is typed to confirm. */
export function DeleteAccountDialog({
  account,
  onClose,
}: {
  account: Account | null;
  onClose: () => void;
}) {
  const remove = useDeleteAccount();
  const close = () => {
    remove.reset();
    onClose();
  };
  const name = account?.name ?? '';
  return (
    <ConfirmDialog
      open={account !== null}
      title={`Delete the account ${name}?`}
      confirmLabel="Delete the account"
      typeToConfirm={{ value: name, label: `Type ${name} to confirm` }}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onClose={close}
      onConfirm={() => account && remove.mutate(account.id, { onSuccess: close })}
    >
      <p className="notice warning">
        Every contact, list, message, administrator and API key of {name} is deleted with it. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
