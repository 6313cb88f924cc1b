import '../held.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { HeldAction, HeldMessage } from '../../../../api/schemas/held.ts';
import { HELD_PAGE_LIMITS } from '../../../../api/schemas/held.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePageShortcuts } from '../../../lib/page-shortcuts.ts';
import { useSelection } from '../../../lib/use-selection.ts';
import { useTriageCursor } from '../../../lib/use-triage-cursor.ts';
import { heldQueries } from '../api/held-queries.ts';
import { useHeldAction } from '../api/use-held-action.ts';
import { HeldPreview } from './held-preview.tsx';
import { heldKey, HeldTable } from './held-table.tsx';
import { RejectDialog } from './reject-dialog.tsx';

const DONE: Record<HeldAction, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  discard: 'Discarded',
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What the queue shows, in the URL: `?list=news&page=2`. */
function readSearch(params: URLSearchParams) {
  const page = params.get('page') ?? '';
  return {
    page: /^[1-9]\d{0,8}$/.test(page) ? Number(page) : 1,
    list: params.get('list') || undefined,
  };
}

/**
 * The held queue for moderators (reference-server extension `held.*`): counts per list, the
 * messages with why each was held, the one under the cursor in the sanitized frame, and keyboard
 * triage (j, k, a, r, d, x) on one message or the selection. Against a server without the
 * extension it says the queue is not offered.
 */
export function HeldPage({ accountId }: { accountId: AccountId }) {
  const [params, setParams] = useSearchParams();
  const search = readSearch(params);
  const held = useQuery({
    ...heldQueries.list(accountId, {
      page: search.page,
      limit: HELD_PAGE_LIMITS.default,
      ...(search.list ? { list: search.list } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const act = useHeldAction(accountId);
  const tableRef = useRef<HTMLTableElement>(null);
  const selection = useSelection(heldKey);
  const [rejecting, setRejecting] = useState<readonly HeldMessage[]>([]);
  const [outcome, setOutcome] = useState('');
  // A tapped subject brings its actions and preview into view: below the queue (on a phone,
  // below every card) they would change out of sight, and the tap would seem to do nothing.
  const messageRef = useRef<HTMLDivElement>(null);
  const [taps, setTaps] = useState(0);
  useEffect(() => {
    const shown = messageRef.current;
    if (taps === 0 || !shown) return;
    const { top } = shown.getBoundingClientRect();
    if (top < 0 || top > window.innerHeight / 2) shown.scrollIntoView({ block: 'start' });
  }, [taps]);

  const page = held.data?.supported ? held.data.value : null;
  const rows = page?.data ?? [];
  const cursor = useTriageCursor({
    rows,
    keyOf: heldKey,
    container: tableRef,
    paused: rejecting.length > 0,
  });
  const current = cursor.currentItem ?? null;
  const chosen = [...selection.selected.values()].filter((m) =>
    rows.some((r) => heldKey(r) === heldKey(m)),
  );

  const toggle = selection.toggle;

  const run = (action: HeldAction, messages: readonly HeldMessage[], reason?: string) => {
    if (messages.length === 0 || act.isPending) return;
    const what =
      messages.length === 1
        ? `“${messages[0]?.subject.trim() || '(no subject)'}”`
        : plural(messages.length, 'message', 'messages');
    setOutcome('');
    // The cursor goes on with the row after those leaving.
    cursor.focusSoon(cursor.after(messages));
    toggle(messages, false);
    act.mutate(
      { action, messages, ...(reason === undefined ? {} : { reason }) },
      { onSuccess: () => setOutcome(`${DONE[action]} ${what}.`) },
    );
  };
  /** The selection when there is one, else the message under the cursor. */
  const target = () => (chosen.length > 0 ? chosen : current ? [current] : []);

  usePageShortcuts([
    { keys: ['j'], description: 'Next held message', run: () => cursor.move(1) },
    { keys: ['k'], description: 'Previous held message', run: () => cursor.move(-1) },
    {
      keys: ['a'],
      description: 'Approve (the selection, else the message): archived and sent to the list',
      run: () => run('approve', target()),
    },
    {
      keys: ['r'],
      description: 'Reject (asks for a reason): the sender gets the reject message',
      run: () => setRejecting(target()),
    },
    {
      keys: ['d'],
      description: 'Discard: nothing is sent',
      run: () => run('discard', target()),
    },
    {
      keys: ['x'],
      description: 'Select or unselect the message',
      run: () => current && toggle([current], !selection.has(current)),
    },
  ]);

  if (held.isPending) return <TableSkeleton label="Loading the held messages…" />;
  if (held.isError) return <ErrorMessage error={held.error} onRetry={() => void held.refetch()} />;
  if (!held.data.supported)
    return (
      <p className="notice">
        This server does not offer a held-message queue: it is an extension of the Listkeeper
        reference server, beyond the mailing-list API. Messages the lists hold are moderated where
        the server offers it.
      </p>
    );

  const value = held.data.value;
  const pages = Math.max(1, Math.ceil(value.count / HELD_PAGE_LIMITS.default));
  const total = value.lists.reduce((sum, entry) => sum + entry.count, 0);
  const pickList = (list: string | undefined) => {
    const next = new URLSearchParams();
    if (list) next.set('list', list);
    return `?${next.toString()}`;
  };

  return (
    <div className="held-page stack">
      <nav aria-label="Held messages per list" className="held-lists">
        <ul>
          <li>
            <Link to={pickList(undefined)} aria-current={search.list ? undefined : 'page'}>
              Every list ({total})
            </Link>
          </li>
          {value.lists.map((entry) => (
            <li key={entry.list}>
              <Link
                to={pickList(entry.list)}
                aria-current={search.list === entry.list ? 'page' : undefined}
              >
                {entry.list} ({entry.count})
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <p role="status" className="summary">
        {outcome}
      </p>
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
        <>
          <div className="toolbar">
            <p className="summary" aria-live="polite" aria-busy={held.isFetching}>
              {plural(value.count, 'held message', 'held messages')}
              {pages > 1 && `; page ${search.page} of ${pages}`}
            </p>
            <HeldActions
              label="The selected messages"
              disabled={chosen.length === 0 || act.isPending}
              names={{
                approve: `Approve selected (${chosen.length})`,
                reject: 'Reject selected…',
                discard: 'Discard selected',
              }}
              onApprove={() => run('approve', chosen)}
              onReject={() => setRejecting(chosen)}
              onDiscard={() => run('discard', chosen)}
            />
          </div>
          <p className="hint">
            Keys: <kbd>j</kbd> and <kbd>k</kbd> move, <kbd>a</kbd> approves, <kbd>r</kbd> rejects,{' '}
            <kbd>d</kbd> discards (the selection, else the message), <kbd>x</kbd> selects;{' '}
            <kbd>?</kbd> lists them all.
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
          <Pagination
            page={search.page}
            pages={pages}
            onPage={(next) => {
              const nextParams = new URLSearchParams(params);
              nextParams.set('page', String(next));
              setParams(nextParams);
            }}
          />
          {current && (
            <div className="stack" ref={messageRef}>
              <HeldActions
                label="This message"
                primary
                disabled={act.isPending}
                names={{ approve: 'Approve', reject: 'Reject…', discard: 'Discard' }}
                onApprove={() => run('approve', [current])}
                onReject={() => setRejecting([current])}
                onDiscard={() => run('discard', [current])}
              />
              <HeldPreview key={heldKey(current)} accountId={accountId} message={current} />
            </div>
          )}
        </>
      )}

      <RejectDialog
        count={rejecting.length}
        subject={rejecting.length === 1 ? rejecting[0]?.subject.trim() || '(no subject)' : null}
        onClose={() => setRejecting([])}
        onReject={(reason) => {
          const messages = rejecting;
          setRejecting([]);
          run('reject', messages, reason);
        }}
      />
    </div>
  );
}

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
