import type { Id } from '../../../../api/primitives.ts';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useDeleteContact } from '../api/contact-mutations.ts';

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
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={`Delete the contact ${name}?`}>
      <p>Its email addresses and list memberships are deleted with it. This cannot be undone.</p>
      {remove.isError && <ErrorMessage error={remove.error} />}
      <div className="actions">
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending}
          onClick={() =>
            // mutateAsync: the page may unmount before this resolves; the error shows via isError.
            remove.mutateAsync(contactId).then(onDeleted, () => undefined)
          }
        >
          {remove.isPending ? 'Deleting…' : 'Delete the contact'}
        </button>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
