import { useId, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
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
    <Dialog open={name !== null} onClose={close} title={`Delete the list ${name ?? ''}?`}>
      {name !== null && (
        <ConfirmByName
          name={name}
          pending={deleteList.isPending}
          error={deleteList.isError ? deleteList.error : null}
          onCancel={close}
          onConfirm={() =>
            deleteList.mutate(name, {
              onSuccess: () => {
                close();
                onDeleted?.();
              },
            })
          }
        />
      )}
    </Dialog>
  );
}

function ConfirmByName({
  name,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  name: string;
  pending: boolean;
  error: unknown;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const matches = typed === name;
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (matches) onConfirm();
      }}
    >
      <p>
        Its members stay in the address book, but lose their membership of this list. This cannot be
        undone.
      </p>
      <div className="field">
        <label htmlFor={inputId}>Type the list’s name, {name}, to confirm</label>
        <input
          id={inputId}
          autoComplete="off"
          spellCheck={false}
          data-initial-focus
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      {error !== null && <ErrorMessage error={error} />}
      <div className="actions">
        <button type="submit" className="button danger" disabled={pending || !matches}>
          {pending ? 'Deleting…' : 'Delete the list'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
