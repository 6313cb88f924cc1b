import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useDeleteList } from '../api/delete-list.ts';

/** Asks before deleting a list (spec §4.4): its memberships go with it; the name must be typed. */
export function DeleteListDialog({
  accountId,
  name,
  onClose,
  onDeleted,
}: {
  accountId: AccountId;
  name: string | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const deleteList = useDeleteList(accountId);
  const close = () => {
    deleteList.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={name !== null}
      title={`Delete the list ${name ?? ''}?`}
      confirmLabel="Delete the list"
      typeToConfirm={{ value: name ?? '', label: `Type the list’s name, ${name ?? ''}, to confirm` }}
      pending={deleteList.isPending}
      error={deleteList.isError ? deleteList.error : null}
      onClose={close}
      onConfirm={() =>
        name !== null &&
        deleteList.mutate(name, {
          onSuccess: () => {
            close();
            onDeleted?.();
          },
        })
      }
    >
      <p>
        Its members stay in the address book, but lose their membership of this list. This cannot be
        undone.
      </p>
    </ConfirmDialog>
  );
}
