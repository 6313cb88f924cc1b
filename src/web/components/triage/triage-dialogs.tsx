import type { TriageQueue } from '../../lib/use-triage-queue.ts';
import type { TriageAction } from '../../lib/use-undoable-actions.ts';
import { BulkConfirmDialog } from './bulk-confirm-dialog.tsx';
import { RejectDialog } from './reject-dialog.tsx';

/**
 * A queue's two questions (lib/use-triage-queue.ts): the reason of a reject, and the count of a
 * bulk approve or discard; each answer runs the action, which then waits for its undo window.
 */
export function TriageDialogs<T>({
  queue,
  noun,
  nameOf,
  rejected,
  reasonLabel,
  consequence,
}: {
  queue: Pick<
    TriageQueue<T>,
    'rejecting' | 'setRejecting' | 'confirming' | 'setConfirming' | 'run'
  >;
  noun: { one: string; many: string };
  /** What one row is called in the reject dialog's title (a subject, an address). */
  nameOf: (item: T) => string;
  /** Who is told of a reject, and what follows, by how many are rejected. */
  rejected: (count: number) => string;
  /** The reason field's label, saying where the reason goes. */
  reasonLabel: string;
  /** What follows a bulk approve or discard. */
  consequence: Record<Exclude<TriageAction, 'reject'>, string>;
}) {
  const { rejecting, confirming } = queue;
  const [only] = rejecting;
  return (
    <>
      <RejectDialog
        count={rejecting.length}
        name={rejecting.length === 1 && only !== undefined ? nameOf(only) : null}
        words={{ noun, explanation: rejected(rejecting.length), reasonLabel }}
        onClose={() => queue.setRejecting([])}
        onReject={(reason) => {
          queue.setRejecting([]);
          queue.run('reject', rejecting, reason);
        }}
      />
      <BulkConfirmDialog
        confirming={confirming && { action: confirming.action, count: confirming.items.length }}
        noun={noun}
        consequence={consequence}
        onClose={() => queue.setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          queue.setConfirming(null);
          queue.run(confirming.action, confirming.items, undefined, true);
        }}
      />
    </>
  );
}
