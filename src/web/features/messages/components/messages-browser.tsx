import '../messages.css';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { Message } from '../../../../api/schemas/message.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { PageSizeSelect } from '../../../components/page-size-select.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { usePageShortcuts } from '../../../lib/page-shortcuts.ts';
import { useSelection } from '../../../lib/use-selection.ts';
import { useTriageCursor } from '../../../lib/use-triage-cursor.ts';
import { LazyJobProgress } from '../../../components/lazy-job-progress.tsx';
import { useJobState } from '../../../lib/use-job.ts';
import { useStartJob } from '../../../lib/start-job.ts';
import { downloadText } from '../../../lib/csv.ts';
import type { Job } from '../../../lib/job-runner.ts';
import { failedMessagesCsv, startBulkDelete } from '../api/delete-message.ts';
import { messageQueries } from '../api/message-queries.ts';
import { subjectOf } from '../lib/format.ts';
import {
  PAGE_SIZES,
  readMessageSearch,
  toMessageQuery,
  writeMessageSearch,
  type Direction,
  type MessageSearch,
} from '../lib/search-params.ts';
import { visibleMessages } from '../lib/visible-messages.ts';
import { isDeleted } from '../api/deleted-messages.ts';
import { DeleteMessageDialog } from './delete-message-dialog.tsx';
import { messageKey, MessagesTable } from './messages-table.tsx';

const DIRECTIONS: { value: Direction; label: string }[] = [
  { value: 'desc', label: 'Newest first' },
  { value: 'asc', label: 'Oldest first' },
];

/**
 * The message archive for moderators (spec §4.5 get many): newest or oldest first, 10, 50 or 100
 * a page, all kept in the URL; threads grouped; keyboard triage (j, k, Enter, Delete, x) and bulk
 * deletion of a selection that may span pages.
 */
export function MessagesBrowser({ accountId }: { accountId: AccountId }) {
  const [params, setParams] = useSearchParams();
  const { may } = usePermissions();
  const state = readMessageSearch(params);
  const messages = useQuery({
    ...messageQueries.list(accountId, toMessageQuery(state)),
    placeholderData: keepPreviousData,
  });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tableRef = useRef<HTMLTableElement>(null);
  const directionId = useId();
  const listId = useId();
  const searchId = useId();

  const selection = useSelection(messageKey);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [confirmBulk, setConfirmBulk] = useState(false);
  const [job, setJob] = useState<Job<Message> | null>(null);
  const jobState = useJobState(job);
  const startJob = useStartJob();

  const update = (change: Partial<MessageSearch>) =>
    setParams(writeMessageSearch({ ...state, page: 1, ...change }));
  /** The list filter and the search narrow the loaded page: the page stays, history is spared. */
  const narrow = (change: Pick<Partial<MessageSearch>, 'list' | 'q'>) =>
    setParams(writeMessageSearch({ ...state, ...change }), { replace: true });
  /** What a message's link carries, so its page steps through this list (next, previous). */
  const search = writeMessageSearch(state).toString();
  const toggle = selection.toggle;

  const page = messages.data;
  const visible = page
    ? visibleMessages(page, state, (message) => isDeleted(accountId, message.id))
    : null;
  const pages = visible?.pages ?? 1;
  const groups = visible?.groups ?? [];
  const rows = visible?.rows ?? [];
  const narrowed = state.list !== null || state.q !== '';
  // The list filter offers the lists of this page, and the one chosen even when none is left.
  const lists = [
    ...new Set([...(visible?.lists ?? []), ...(state.list === null ? [] : [state.list])]),
  ].sort();
  // Paused while the delete dialog is open: triage goes on once it has closed.
  const cursor = useTriageCursor({
    rows,
    keyOf: messageKey,
    container: tableRef,
    paused: deleting !== null,
  });
  const currentMessage = cursor.currentItem;

  usePageShortcuts([
    { keys: ['j'], description: 'Next message', run: () => cursor.move(1) },
    { keys: ['k'], description: 'Previous message', run: () => cursor.move(-1) },
    {
      keys: ['Enter'],
      description: 'Open the message',
      run: () =>
        currentMessage &&
        void navigate({ pathname: encodeURIComponent(messageKey(currentMessage)), search }),
    },
    {
      keys: ['Delete'],
      description: 'Delete the message (asks first)',
      run: () => currentMessage && setDeleting(currentMessage),
    },
    {
      keys: ['x'],
      description: 'Select or unselect the message',
      run: () => currentMessage && toggle([currentMessage], !selection.has(currentMessage)),
    },
  ]);

  const chosen = [...selection.selected.values()];
  return (
    <>
      <div className="toolbar">
        <form
          className="inline-form"
          aria-label="Messages shown"
          onSubmit={(e) => e.preventDefault()}
        >
          <div className="field">
            <label htmlFor={directionId}>Order</label>
            <select
              id={directionId}
              value={state.direction}
              onChange={(event) =>
                update({ direction: event.target.value === 'asc' ? 'asc' : 'desc' })
              }
            >
              {DIRECTIONS.map(({ value, label }) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <PageSizeSelect
            sizes={PAGE_SIZES}
            value={state.limit}
            onChange={(limit) => update({ limit })}
          />
          <div className="field">
            <label htmlFor={listId}>List</label>
            <select
              id={listId}
              value={state.list ?? ''}
              onChange={(event) => narrow({ list: event.target.value || null })}
            >
              <option value="">Every list</option>
              {lists.map((list) => (
                <option key={list} value={list}>
                  {list}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={searchId}>Search this page</label>
            <input
              id={searchId}
              type="search"
              value={state.q}
              aria-describedby={`${searchId}-hint`}
              onChange={(event) => narrow({ q: event.target.value })}
            />
            <span id={`${searchId}-hint`} className="visually-hidden">
              Subject, sender and plain text of the messages loaded on this page.
            </span>
          </div>
        </form>
        <div className="actions">
          {may('messages.send') && (
            <Link className="button primary" to="new">
              New message
            </Link>
          )}
          <button
            type="button"
            className="button danger"
            disabled={chosen.length === 0 || job !== null}
            onClick={() => setConfirmBulk(true)}
          >
            Delete selected ({chosen.length})
          </button>
        </div>
      </div>

      {startJob.loadError && <ErrorMessage error={startJob.loadError} />}
      {job && jobState && (
        <LazyJobProgress
          title="Deleting messages"
          job={job}
          state={jobState}
          onDownloadFailures={() =>
            downloadText('messages-not-deleted.csv', failedMessagesCsv(jobState.failures))
          }
          onClose={() => {
            setJob(null);
            selection.clear();
          }}
        />
      )}

      {messages.isPending ? (
        <TableSkeleton label="Loading messages…" />
      ) : messages.isError ? (
        <ErrorMessage error={messages.error} onRetry={() => void messages.refetch()} />
      ) : messages.data.data.length === 0 ? (
        <p className="summary">
          {messages.data.count === 0 ? 'No messages yet.' : 'No messages on this page.'}
        </p>
      ) : rows.length === 0 ? (
        <>
          <p className="summary" aria-live="polite">
            None of the {plural(messages.data.data.length, 'message')} on this page matches
            {state.list !== null && ` the list ${state.list}`}
            {state.list !== null && state.q !== '' && ' and'}
            {state.q !== '' && ` “${state.q}”`}.
          </p>
          <button type="button" className="button" onClick={() => narrow({ list: null, q: '' })}>
            Show every message of the page
          </button>
          <Pagination page={state.page} pages={pages} onPage={(page) => update({ page })} />
        </>
      ) : (
        <>
          {/* Announced as it changes (another page, another order); a status role is kept for
              what is still under way. */}
          <p className="summary" aria-live="polite" aria-busy={messages.isFetching}>
            {plural(messages.data.count, 'message')}
            {pages > 1 && `; page ${state.page} of ${pages}`}
            {narrowed &&
              `; ${rows.length} of the ${messages.data.data.length} on this page ${rows.length === 1 ? 'matches' : 'match'}`}
            {`, in ${plural(groups.length, 'thread')} here`}
            {messages.isPlaceholderData && ' (updating…)'}
          </p>
          <p className="hint">
            Keys: <kbd>j</kbd> and <kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>x</kbd> selects,{' '}
            <kbd>Delete</kbd> deletes; <kbd>?</kbd> lists them all.
          </p>
          <TableScroll label="Messages">
            <MessagesTable
              ref={tableRef}
              groups={groups}
              selected={new Set(selection.selected.keys())}
              onToggle={(message, on) => toggle([message], on)}
              onToggleAll={(on) => toggle(rows, on)}
              current={cursor.current}
              onCurrent={cursor.setCurrent}
              search={search}
            />
          </TableScroll>
          <Pagination page={state.page} pages={pages} onPage={(page) => update({ page })} />
        </>
      )}

      <DeleteMessageDialog
        accountId={accountId}
        message={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          if (!deleting) return;
          // Triage goes on with the next row (or the previous one at the end).
          toggle([deleting], false);
          cursor.focusSoon(cursor.after([deleting]));
          setDeleting(null);
        }}
      />
      <ConfirmDialog
        open={confirmBulk}
        title={chosen.length === 1 ? 'Delete 1 message?' : `Delete ${chosen.length} messages?`}
        confirmLabel={`Delete ${chosen.length === 1 ? 'the message' : `the ${chosen.length} messages`}`}
        onConfirm={() => {
          setConfirmBulk(false);
          void startBulkDelete(startJob.start, queryClient, accountId, chosen).then(setJob);
        }}
        onClose={() => setConfirmBulk(false)}
      >
        <p>
          They are removed from the archive; replies to them stay in their threads. This cannot be
          undone.
        </p>
        <ul className="bulk-subjects">
          {chosen.slice(0, 10).map((message) => (
            <li key={messageKey(message)}>{subjectOf(message)}</li>
          ))}
          {chosen.length > 10 && <li>and {chosen.length - 10} more</li>}
        </ul>
      </ConfirmDialog>
    </>
  );
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
