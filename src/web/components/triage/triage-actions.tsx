import './triage.css';
import type { TriageAction } from '../../lib/use-undoable-actions.ts';

/**
 * Approve, reject and discard, for a queue's selection or one of its rows: a group named by
 * `label`, its buttons by `names`.
 */
export function TriageActions({
  label,
  primary = false,
  disabled = false,
  names,
  onAct,
}: {
  label: string;
  /** Approve is the main action here (the row under the cursor). */
  primary?: boolean;
  disabled?: boolean;
  names: Record<TriageAction, string>;
  onAct: (action: TriageAction) => void;
}) {
  return (
    <div className="actions" role="group" aria-label={label}>
      <button
        type="button"
        className={primary ? 'button primary' : 'button'}
        disabled={disabled}
        onClick={() => onAct('approve')}
      >
        {names.approve}
      </button>
      <button type="button" className="button" disabled={disabled} onClick={() => onAct('reject')}>
        {names.reject}
      </button>
      <button
        type="button"
        className="button danger"
        disabled={disabled}
        onClick={() => onAct('discard')}
      >
        {names.discard}
      </button>
    </div>
  );
}
