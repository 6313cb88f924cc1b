import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useDeleteList } from '../api/delete-list.ts';

/** Asks before deleting a list (spec §4.4): its memberships go with it. */
export function DeleteListDialog({
  accountId,
  name,
  onClose,
}: {
  accountId: AccountId;
  name: string | null;
  onClose: () => void;
}) {
  const deleteList = useDeleteList(accountId);
  const close = () => {
    deleteList.reset();
    onClose();
  };
  return (
    <Dialog open={name !== null} onClose={close} title={`Delete the list ${name ?? ''}?`}>
      <p>
        Its members stay in the address book, but lose their membership of this list. This cannot be
        undone.
      </p>
      {deleteList.isError && <ErrorMessage error={deleteList.error} />}
      <div className="actions">
        <button
          type="button"
          className="button danger"
          disabled={deleteList.isPending}
          onClick={() => name !== null && deleteList.mutate(name, { onSuccess: close })}
        >
          {deleteList.isPending ? 'Deleting…' : 'Delete the list'}
        </button>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
