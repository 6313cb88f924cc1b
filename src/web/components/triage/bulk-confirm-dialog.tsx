import { plural } from '../../lib/use-triage-queue.ts';
import { UNDO_SECONDS, type TriageAction } from '../../lib/use-undoable-actions.ts';
import { ConfirmDialog } from '../confirm-dialog.tsx';

const VERB = { approve: 'Approve', discard: 'Discard' } as const;

/**
 * A bulk approve or discard of a queue says how many first (issue 27 item 3): “Approve 3
 * messages?”, confirmed by “Approve the 3 messages” (Enter), with what follows for them.
 */
export function BulkConfirmDialog({
  confirming,
  noun,
  consequence,
  onClose,
  onConfirm,
}: {
  confirming: { action: Exclude<TriageAction, 'reject'>; count: number } | null;
  noun: { one: string; many: string };
  consequence: Record<Exclude<TriageAction, 'reject'>, string>;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const verb = confirming ? VERB[confirming.action] : '';
  return (
    <ConfirmDialog
      open={confirming !== null}
      title={confirming ? `${verb} ${plural(confirming.count, noun.one, noun.many)}?` : ''}
      confirmLabel={confirming ? `${verb} the ${confirming.count} ${noun.many}` : ''}
      onClose={onClose}
      onConfirm={onConfirm}
    >
      <p>
        {confirming && consequence[confirming.action]} You can still undo for {UNDO_SECONDS} seconds
        after.
      </p>
    </ConfirmDialog>
  );
}
