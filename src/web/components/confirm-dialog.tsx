import { useId, useState, type ReactNode } from 'react';
import { Dialog } from './dialog.tsx';
import { ErrorMessage } from './error-message.tsx';
import { FormField } from './form/form-field.tsx';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What the action does and what goes with it, said plainly. */
  children: ReactNode;
  /** The button's words, e.g. "Delete the list". */
  confirmLabel: string;
  /** The button's words while the action is under way. */
  pendingLabel?: string;
  /**
   * For actions that cascade (a list's memberships, an account's everything): the user types
   * this value to confirm, under this label.
   */
  typeToConfirm?: { value: string; label: string };
  pending?: boolean;
  /** The failed attempt's error, shown in the dialog; null or undefined when there is none. */
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * One way to ask before something that cannot be undone. Without a typed confirmation the
 * confirming button takes the focus, so Enter confirms and Escape cancels (keyboard triage).
 */
export function ConfirmDialog({ open, title, onClose, ...props }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {/* Mounted only while open: the typed confirmation starts empty every time. */}
      <ConfirmForm {...props} onClose={onClose} />
    </Dialog>
  );
}

function ConfirmForm({
  children,
  confirmLabel,
  pendingLabel = 'Deleting…',
  typeToConfirm,
  pending = false,
  error,
  onConfirm,
  onClose,
}: Omit<ConfirmDialogProps, 'open' | 'title'>) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const confirmed = !typeToConfirm || typed === typeToConfirm.value;
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (confirmed && !pending) onConfirm();
      }}
    >
      {children}
      {typeToConfirm && (
        <FormField id={inputId} label={<>{typeToConfirm.label}</>}>
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              spellCheck={false}
              data-initial-focus
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          )}
        </FormField>
      )}
      {error !== null && error !== undefined && <ErrorMessage error={error} />}
      <div className="actions">
        <button
          type="submit"
          className="button danger"
          data-initial-focus={typeToConfirm ? undefined : true}
          disabled={pending || !confirmed}
        >
          {pending ? pendingLabel : confirmLabel}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
