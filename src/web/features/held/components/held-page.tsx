import '../held.css';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { HeldAction } from '../../../../api/schemas/held.ts';
import { HELD_PAGE_LIMITS } from '../../../../api/schemas/held.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { plural, useHeldPage } from '../controllers/use-held-page.ts';
import { UNDO_SECONDS, type PendingAction } from '../controllers/use-undoable-actions.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SenderRuleOffer } from './sender-rule-offer.tsx';
import { heldKey } from '../lib/held-key.ts';
import { HeldPreview } from './held-preview.tsx';
import { HeldTable } from './held-table.tsx';
import { RejectDialog } from './reject-dialog.tsx';

/**
 * The held queue for moderators (reference-server extension `held.*`): counts per list, the
 * messages with why each was held, the one under the cursor in the sanitized frame, and keyboard
 * triage (j, k, a, r, d, x) on one message or the selection. Against a server without the
 * extension it says the queue is not offered.
 */
export function HeldPage({ accountId }: { accountId: AccountId }) {
  const held = useHeldPage(accountId);
  const { search, act, tableRef, selection, rows, cursor, current, chosen, toggle, run } = held;
  // A tapped subject (and, but side by side, j or k) brings the open message into view: below the
  // queue (on a phone, below every card) it would change out of sight.
  const messageRef = useRef<HTMLDivElement>(null);
  const [taps, setTaps] = useState(0);
  const { moves } = held;
  useEffect(() => {
    const shown = messageRef.current;
    if ((taps === 0 && moves === 0) || !shown) return;
    if (taps === 0 && window.matchMedia(SIDE_BY_SIDE).matches) return;
    const { top } = shown.getBoundingClientRect();
    if (top < 0 || top > window.innerHeight / 2) shown.scrollIntoView({ block: 'start' });
  }, [taps, moves]);

  if (held.held.isPending) return <TableSkeleton label="Loading the held messages…" />;
  if (held.held.isError)
    return <ErrorMessage error={held.held.error} onRetry={() => void held.held.refetch()} />;
  if (!held.shown?.supported)
    return (
      <p className="notice">
        This server does not offer a held-message queue: it is an extension of the Listkeeper
        reference server, beyond the mailing-list API. Messages the lists hold are moderated where
        the server offers it.
      </p>
    );

  const value = held.shown.value;
  const pages = Math.max(1, Math.ceil(value.count / HELD_PAGE_LIMITS.default));
  const total = value.lists.reduce((sum, entry) => sum + entry.count, 0);
  const confirming = held.confirming;

  return (
    <div className="held-page stack">
      <nav aria-label="Held messages per list" className="held-lists">
        <ul>
          <li>
            <Link to={held.pickList(undefined)} aria-current={search.list ? undefined : 'page'}>
              Every list ({total})
            </Link>
          </li>
          {value.lists.map((entry) => (
            <li key={entry.list}>
              <Link
                to={held.pickList(entry.list)}
                aria-current={search.list === entry.list ? 'page' : undefined}
              >
                {entry.list} ({entry.count})
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <UndoToast pending={held.pending} onUndo={held.undo} />
      <p role="status" className="summary">
        {held.outcome}
      </p>
      {held.sender && <SenderRuleOffer accountId={accountId} sender={held.sender} />}
      {act.isError && (
        <div className="stack">
          <p>Nothing was changed: the server refused. The messages are back in the queue.</p>
          <ErrorMessage error={act.error} />
        </div>
      )}

      {rows.length === 0 ? (
        <p className="summary">
          {search.list ? `No message of ${search.list} is held.` : 'No message is held.'}
        </p>
      ) : (
        <div className="held-body">
          <div className="stack held-queue">
            <div className="toolbar">
              <p className="summary" aria-live="polite" aria-busy={held.held.isFetching}>
                {plural(value.count, 'held message', 'held messages')}
                {pages > 1 && `; page ${search.page} of ${pages}`}
              </p>
              <HeldActions
                label="The selected messages"
                disabled={chosen.length === 0}
                names={{
                  approve: `Approve selected (${chosen.length})`,
                  reject: 'Reject selected…',
                  discard: 'Discard selected',
                }}
                onApprove={() => run('approve', chosen)}
                onReject={() => held.setRejecting(chosen)}
                onDiscard={() => run('discard', chosen)}
              />
            </div>
            <p className="hint">
              Keys: <kbd>j</kbd> and <kbd>k</kbd> move, <kbd>a</kbd> approves, <kbd>r</kbd> rejects,{' '}
              <kbd>d</kbd> discards (the selection, else the message), <kbd>u</kbd> undoes within{' '}
              {UNDO_SECONDS} seconds, <kbd>x</kbd> selects; <kbd>?</kbd> lists them all.
            </p>
            <TableScroll label="Held messages">
              <HeldTable
                ref={tableRef}
                messages={rows}
                selected={new Set(selection.selected.keys())}
                onToggle={(message, on) => toggle([message], on)}
                onToggleAll={(on) => toggle(rows, on)}
                current={cursor.current}
                onCurrent={cursor.setCurrent}
                onTap={() => setTaps((count) => count + 1)}
              />
            </TableScroll>
            <Pagination page={search.page} pages={pages} onPage={held.goToPage} />
          </div>
          {current && (
            <div className="stack held-open" ref={messageRef}>
              <HeldActions
                label="This message"
                primary
                disabled={false}
                names={{ approve: 'Approve', reject: 'Reject…', discard: 'Discard' }}
                onApprove={() => run('approve', [current])}
                onReject={() => held.setRejecting([current])}
                onDiscard={() => run('discard', [current])}
              />
              <HeldPreview key={heldKey(current)} accountId={accountId} message={current} />
            </div>
          )}
        </div>
      )}

      <RejectDialog
        count={held.rejecting.length}
        subject={
          held.rejecting.length === 1 ? held.rejecting[0]?.subject.trim() || '(no subject)' : null
        }
        onClose={() => held.setRejecting([])}
        onReject={(reason) => {
          const messages = held.rejecting;
          held.setRejecting([]);
          run('reject', messages, reason);
        }}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={
          confirming
            ? `${confirming.action === 'approve' ? 'Approve' : 'Discard'} ${plural(confirming.messages.length, 'message', 'messages')}?`
            : ''
        }
        confirmLabel={
          confirming
            ? `${confirming.action === 'approve' ? 'Approve' : 'Discard'} the ${confirming.messages.length} messages`
            : ''
        }
        onClose={() => held.setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          held.setConfirming(null);
          run(confirming.action, confirming.messages, undefined, true);
        }}
      >
        <p>
          {confirming?.action === 'approve'
            ? 'They are archived and sent to their lists’ members.'
            : 'They are dropped: nothing is sent, not even to their senders.'}{' '}
          You can still undo for {UNDO_SECONDS} seconds after.
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** The actions waiting for their undo window, each with its Undo button (and `u` for the latest). */
function UndoToast({
  pending,
  onUndo,
}: {
  pending: readonly PendingAction[];
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

const WILL: Record<HeldAction, string> = {
  approve: 'Approving',
  reject: 'Rejecting',
  discard: 'Discarding',
};

/** Wide enough for the queue and the open message side by side (held.css). */
const SIDE_BY_SIDE = '(min-width: 75rem)';

/** Approve, reject and discard, for the selection or the message under the cursor. */
function HeldActions({
  label,
  primary = false,
  disabled,
  names,
  onApprove,
  onReject,
  onDiscard,
}: {
  label: string;
  /** Approve is the page's main action (the message under the cursor). */
  primary?: boolean;
  disabled: boolean;
  names: Record<HeldAction, string>;
  onApprove: () => void;
  onReject: () => void;
  onDiscard: () => void;
}) {
  return (
    <div className="actions" role="group" aria-label={label}>
      <button
        type="button"
        className={primary ? 'button primary' : 'button'}
        disabled={disabled}
        onClick={onApprove}
      >
        {names.approve}
      </button>
      <button type="button" className="button" disabled={disabled} onClick={onReject}>
        {names.reject}
      </button>
      <button type="button" className="button danger" disabled={disabled} onClick={onDiscard}>
        {names.discard}
      </button>
    </div>
  );
}
