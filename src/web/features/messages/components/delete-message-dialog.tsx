import type { Message } from '../../../../api/schemas/message.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { useDeleteMessage } from '../api/delete-message.ts';
import { subjectOf } from '../lib/format.ts';

/** Asks before deleting one message from the archive (spec §4.5 delete). */
export function DeleteMessageDialog({
  accountId,
  message,
  onClose,
  onDeleted,
}: {
  accountId: AccountId;
  /** The message to delete; null: the dialog is closed. */
  message: Message | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteMessage(accountId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!message) return;
    // mutateAsync: the page may unmount before this resolves; the error shows via isError.
    remove.mutateAsync(message.id).then(
      () => {
        remove.reset();
        onDeleted();
      },
      () => undefined,
    );
  };
  return (
    <ConfirmDialog
      open={message !== null}
      title={message ? `Delete the message “${subjectOf(message)}”?` : 'Delete the message?'}
      confirmLabel="Delete the message"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={confirm}
      onClose={close}
    >
      <p>
        It is removed from the archive; replies to it stay in the thread. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
