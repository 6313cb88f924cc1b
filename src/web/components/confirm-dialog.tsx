import type { ReactNode } from 'react';
import { Dialog } from './dialog.tsx';
import { ErrorMessage } from './error-message.tsx';

/**
 * Asks before an action that cannot be undone. The confirming button takes the focus (so Enter
 * confirms, Escape cancels), says when the action is under way, and the error shows above it.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  pendingLabel = confirmLabel,
  pending = false,
  error,
  onConfirm,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  /** The failure of the last attempt; null or undefined when there is none. */
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {children}
      {error !== null && error !== undefined && <ErrorMessage error={error} />}
      <div className="actions">
        <button
          type="button"
          className="button danger"
          data-initial-focus
          disabled={pending}
          onClick={onConfirm}
        >
          {pending ? pendingLabel : confirmLabel}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
