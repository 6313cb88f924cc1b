import '../../../components/triage/triage.css';
import '../held.css';
import { useEffect, useRef, useState } from 'react';
import { HELD_PAGE_LIMITS } from '../../../../api/schemas/held.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { TriageActions } from '../../../components/triage/triage-actions.tsx';
import { TriageCounts } from '../../../components/triage/triage-counts.tsx';
import { TriageDialogs } from '../../../components/triage/triage-dialogs.tsx';
import { TriageToolbar } from '../../../components/triage/triage-toolbar.tsx';
import { UndoToasts } from '../../../components/triage/undo-toasts.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { plural } from '../../../lib/use-triage-queue.ts';
import { useHeldPage } from '../controllers/use-held-page.ts';
import { heldKey } from '../lib/held-key.ts';
import { HeldPreview } from './held-preview.tsx';
import { HeldTable } from './held-table.tsx';
import { SenderRuleOffer } from './sender-rule-offer.tsx';

/**
 * The held queue for moderators (reference-server extension `held.*`): counts per list, the
 * messages with why each was held, the one under the cursor in the sanitized frame, and keyboard
 * triage (j, k, a, r, d, x, u) on one message or the selection. Against a server without the
 * extension it says the queue is not offered.
 */
export function HeldPage({ accountId }: { accountId: AccountId }) {
  const held = useHeldPage(accountId);
  const { search, act, tableRef, selection, rows, cursor, current, chosen, toggle } = held;
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

  return (
    <div className="held-page stack">
      <TriageCounts
        label="Held messages per list"
        links={[
          {
            key: '',
            to: held.pickList(undefined),
            current: !search.list,
            text: `Every list (${total})`,
          },
          ...value.lists.map((entry) => ({
            key: entry.list,
            to: held.pickList(entry.list),
            current: search.list === entry.list,
            text: `${entry.list} (${entry.count})`,
          })),
        ]}
      />

      <UndoToasts pending={held.pending} onUndo={held.undo} />
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
            <TriageToolbar
              summary={
                <>
                  {plural(value.count, 'held message', 'held messages')}
                  {pages > 1 && `; page ${search.page} of ${pages}`}
                </>
              }
              busy={held.held.isFetching}
              selected={chosen.length}
              label="The selected messages"
              row="message"
              onAct={(action) => held.begin(action, chosen)}
            />
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
              <TriageActions
                label="This message"
                primary
                names={{ approve: 'Approve', reject: 'Reject…', discard: 'Discard' }}
                onAct={(action) => held.begin(action, [current])}
              />
              <HeldPreview key={heldKey(current)} accountId={accountId} message={current} />
            </div>
          )}
        </div>
      )}

      <TriageDialogs
        queue={held}
        noun={{ one: 'message', many: 'messages' }}
        nameOf={held.subjectOf}
        rejected={(count) =>
          `${count === 1 ? 'The sender gets' : 'Each sender gets'} the list’s reject message; the message is not archived or sent to the list.`
        }
        reasonLabel="Reason (optional, added to the reject message)"
        consequence={{
          approve: 'They are archived and sent to their lists’ members.',
          discard: 'They are dropped: nothing is sent, not even to their senders.',
        }}
      />
    </div>
  );
}

/** Wide enough for the queue and the open message side by side (held.css). */
const SIDE_BY_SIDE = '(min-width: 75rem)';
