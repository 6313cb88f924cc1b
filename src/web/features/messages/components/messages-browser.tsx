import '../messages.css';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
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
import { JobProgress } from '../../../components/job-progress.tsx';
import { useJobState } from '../../../lib/use-job.ts';
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
import { threadsOfPage } from '../lib/threads.ts';
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

  const [selected, setSelected] = useState<ReadonlyMap<string, Message>>(new Map());
  const [current, setCurrent] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [confirmBulk, setConfirmBulk] = useState(false);
  const [job, setJob] = useState<Job<Message> | null>(null);
  const jobState = useJobState(job);

  const update = (change: Partial<MessageSearch>) =>
    setParams(writeMessageSearch({ ...state, page: 1, ...change }));
  const toggle = (list: readonly Message[], on: boolean) =>
    setSelected((before) => {
      const next = new Map(before);
      for (const message of list) {
        if (on) next.set(messageKey(message), message);
        else next.delete(messageKey(message));
      }
      return next;
    });

  const page = messages.data;
  const pages = page ? Math.max(1, Math.ceil(page.count / state.limit)) : 1;
  // A reply is newer than what it answers: at the newest end, no thread continues on another page.
  const atNewestEnd = state.direction === 'desc' ? state.page === 1 : state.page >= pages;
  const groups = page ? threadsOfPage(page.data, atNewestEnd) : [];
  const rows = groups.flatMap((group) => group.rows.map((row) => row.message));
  const currentMessage = rows.find((message) => messageKey(message) === current) ?? null;

  /** Puts the triage cursor on a row and the focus on its link. */
  const focusRow = (message: Message) => {
    setCurrent(messageKey(message));
    tableRef.current
      ?.querySelector<HTMLElement>(`[data-message-link="${CSS.escape(messageKey(message))}"]`)
      ?.focus();
  };
  /**
   * The row triage goes on with once the delete dialog has closed: closing a modal dialog gives
   * the focus back to what opened it, so focusing any earlier (even a frame later) is undone.
   */
  const focusAfterDelete = useRef<Message | null>(null);
  useEffect(() => {
    // The dialog's own effect (a child's) has closed it by now.
    if (deleting !== null || !focusAfterDelete.current) return;
    focusRow(focusAfterDelete.current);
    focusAfterDelete.current = null;
  });
  /** Moves the triage cursor by `step` rows; from nowhere, `j` starts at the top, `k` at the end. */
  const move = (step: number) => {
    const index = rows.findIndex((message) => messageKey(message) === current);
    const target = index === -1 ? (step > 0 ? 0 : rows.length - 1) : index + step;
    const next = rows[Math.min(rows.length - 1, Math.max(0, target))];
    if (next) focusRow(next);
  };

  usePageShortcuts([
    { keys: ['j'], description: 'Next message', run: () => move(1) },
    { keys: ['k'], description: 'Previous message', run: () => move(-1) },
    {
      keys: ['Enter'],
      description: 'Open the message',
      run: () => currentMessage && void navigate(encodeURIComponent(messageKey(currentMessage))),
    },
    {
      keys: ['Delete'],
      description: 'Delete the message (asks first)',
      run: () => currentMessage && setDeleting(currentMessage),
    },
    {
      keys: ['x'],
      description: 'Select or unselect the message',
      run: () =>
        currentMessage && toggle([currentMessage], !selected.has(messageKey(currentMessage))),
    },
  ]);

  const chosen = [...selected.values()];
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

      {job && jobState && (
        <JobProgress
          title="Deleting messages"
          job={job}
          state={jobState}
          onDownloadFailures={() =>
            downloadText('messages-not-deleted.csv', failedMessagesCsv(jobState.failures))
          }
          onClose={() => {
            setJob(null);
            setSelected(new Map());
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
      ) : (
        <>
          {/* Announced as it changes (another page, another order); a status role is kept for
              what is still under way. */}
          <p className="summary" aria-live="polite" aria-busy={messages.isFetching}>
            {messages.data.count === 1 ? '1 message' : `${messages.data.count} messages`}
            {pages > 1 && `; page ${state.page} of ${pages}`}
            {`, in ${groups.length === 1 ? '1 thread' : `${groups.length} threads`} here`}
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
              selected={new Set(selected.keys())}
              onToggle={(message, on) => toggle([message], on)}
              onToggleAll={(on) => toggle(rows, on)}
              current={current}
              onCurrent={setCurrent}
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
          const index = rows.findIndex((m) => messageKey(m) === messageKey(deleting));
          const neighbour = rows[index + 1] ?? rows[index - 1];
          toggle([deleting], false);
          focusAfterDelete.current = neighbour ?? null;
          setDeleting(null);
        }}
      />
      <ConfirmDialog
        open={confirmBulk}
        title={chosen.length === 1 ? 'Delete 1 message?' : `Delete ${chosen.length} messages?`}
        confirmLabel={`Delete ${chosen.length === 1 ? 'the message' : `the ${chosen.length} messages`}`}
        onConfirm={() => {
          setConfirmBulk(false);
          setJob(startBulkDelete(queryClient, accountId, chosen));
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
