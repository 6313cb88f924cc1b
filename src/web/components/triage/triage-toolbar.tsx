import type { ReactNode } from 'react';
import type { TriageAction } from '../../lib/use-undoable-actions.ts';
import { UNDO_SECONDS } from '../../lib/use-undoable-actions.ts';
import { TriageActions } from './triage-actions.tsx';

/**
 * Above a queue's table: how many wait (announced as it changes), the selection's actions, and
 * the keys that triage it (the full list is `?`'s).
 */
export function TriageToolbar({
  summary,
  busy,
  selected,
  label,
  row,
  onAct,
}: {
  /** `4 held messages; page 1 of 2`. */
  summary: ReactNode;
  /** The queue is being read again. */
  busy: boolean;
  /** How many rows are selected. */
  selected: number;
  /** The selection's group of actions: `The selected messages`. */
  label: string;
  /** What one row is: `message`, `request`. */
  row: string;
  onAct: (action: TriageAction) => void;
}) {
  return (
    <>
      <div className="toolbar">
        <p className="summary" aria-live="polite" aria-busy={busy}>
          {summary}
        </p>
        <TriageActions
          label={label}
          disabled={selected === 0}
          names={{
            approve: `Approve selected (${selected})`,
            reject: 'Reject selected…',
            discard: 'Discard selected',
          }}
          onAct={onAct}
        />
      </div>
      <p className="hint">
        Keys: <kbd>j</kbd> and <kbd>k</kbd> move, <kbd>a</kbd> approves, <kbd>r</kbd> rejects,{' '}
        <kbd>d</kbd> discards (the selection, else the {row}), <kbd>u</kbd> undoes within{' '}
        {UNDO_SECONDS} seconds, <kbd>x</kbd> selects; <kbd>?</kbd> lists them all.
      </p>
    </>
  );
}
