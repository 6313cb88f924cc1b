import type { Id } from '../../../../api/primitives.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useDeleteContact } from '../api/contact-mutations.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { confinedLists } from '../../../lib/powers.ts';

/** Asks before deleting a contact (spec §4.1): its addresses and memberships go with it. */
export function DeleteContactDialog({
  accountId,
  contactId,
  name,
  open,
  onClose,
  onDeleted,
}: {
  accountId: AccountId;
  contactId: Id;
  name: string;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteContact(accountId);
  const confined = confinedLists(usePermissions()) !== null;
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={open}
      title={`Delete the contact ${name}?`}
      confirmLabel="Delete the contact"
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onClose={close}
      onConfirm={() =>
        // mutateAsync: the page may unmount before this resolves; the error shows via isError.
        void remove.mutateAsync(contactId).then(onDeleted, () => undefined)
      }
    >
      <p>Its email addresses and list memberships are deleted with it. This cannot be undone.</p>
      {confined && (
        <p className="hint">
          You are limited to some lists (limit_lists): if the contact is also on a list you do not
          see, the server refuses, and says so here.
        </p>
      )}
    </ConfirmDialog>
  );
}
