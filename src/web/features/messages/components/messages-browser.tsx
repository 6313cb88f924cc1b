import '../messages.css';
import { useId } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FormField } from '../../../components/form/form-field.tsx';
import { LazyJobProgress } from '../../../components/lazy-job-progress.tsx';
import { PageSizeSelect } from '../../../components/page-size-select.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { downloadText } from '../../../lib/csv.ts';
import { failedMessagesCsv } from '../api/delete-message.ts';
import { useMessagesBrowser } from '../controllers/use-messages-browser.ts';
import { subjectOf } from '../lib/format.ts';
import { PAGE_SIZES, type Direction } from '../lib/search-params.ts';
import { DeleteMessageDialog } from './delete-message-dialog.tsx';
import { messageKey } from '../lib/message-key.ts';
import { MessagesTable } from './messages-table.tsx';

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
  const {
    state,
    messages,
    tableRef,
    selection,
    deleting,
    setDeleting,
    confirmBulk,
    setConfirmBulk,
    job,
    setJob,
    jobState,
    startJob,
    update,
    narrow,
    search,
    toggle,
    pages,
    groups,
    rows,
    narrowed,
    lists,
    cursor,
    chosen,
    may,
    deleteChosen,
  } = useMessagesBrowser(accountId);
  const directionId = useId();
  const listId = useId();
  const searchId = useId();
  return (
    <>
      <div className="toolbar">
        <form
          className="inline-form"
          aria-label="Messages shown"
          onSubmit={(e) => e.preventDefault()}
        >
          <FormField id={directionId} label="Order">
            {(control) => (
              <select
                {...control}
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
            )}
          </FormField>
          <PageSizeSelect
            sizes={PAGE_SIZES}
            value={state.limit}
            onChange={(limit) => update({ limit })}
          />
          <FormField id={listId} label="List">
            {(control) => (
              <select
                {...control}
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
            )}
          </FormField>
          <FormField
            id={searchId}
            label="Search this page"
            after={
              <>
                <span id={`${searchId}-hint`} className="visually-hidden">
                  Subject, sender and plain text of the messages loaded on this page.
                </span>
              </>
            }
          >
            {(control) => (
              <input
                {...control}
                type="search"
                value={state.q}
                aria-describedby={`${searchId}-hint`}
                onChange={(event) => narrow({ q: event.target.value })}
              />
            )}
          </FormField>
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
          deleteChosen();
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
