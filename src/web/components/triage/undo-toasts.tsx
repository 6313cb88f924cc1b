import './triage.css';
import {
  UNDO_SECONDS,
  type PendingAction,
  type TriageAction,
} from '../../lib/use-undoable-actions.ts';

const WILL: Record<TriageAction, string> = {
  approve: 'Approving',
  reject: 'Rejecting',
  discard: 'Discarding',
};

/**
 * The actions of a queue waiting for their undo window (lib/use-undoable-actions.ts), each with
 * its Undo button (and `u` for the latest), at the bottom of the screen whatever its scroll.
 */
export function UndoToasts<T>({
  pending,
  onUndo,
}: {
  pending: readonly PendingAction<T>[];
  onUndo: (key: number) => void;
}) {
  return (
    <div className="undo-toasts" role="status" aria-live="polite">
      {pending.map((entry) => (
        <p key={entry.key} className="undo-toast">
          {WILL[entry.action]} {entry.what} in {UNDO_SECONDS} seconds.{' '}
          <button type="button" className="button small" onClick={() => onUndo(entry.key)}>
            Undo
          </button>{' '}
          <span className="hint">
            (or <kbd>u</kbd>)
          </span>
        </p>
      ))}
    </div>
  );
}
