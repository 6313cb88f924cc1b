import '../../../components/triage/triage.css';
import { Link } from 'react-router';
import { REQUEST_KINDS, REQUEST_PAGE_LIMITS } from '../../../../api/schemas/request.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BulkConfirmDialog } from '../../../components/triage/bulk-confirm-dialog.tsx';
import { RejectDialog } from '../../../components/triage/reject-dialog.tsx';
import { TriageActions } from '../../../components/triage/triage-actions.tsx';
import { UndoToasts } from '../../../components/triage/undo-toasts.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { plural } from '../../../lib/use-triage-queue.ts';
import { UNDO_SECONDS } from '../../../lib/use-undoable-actions.ts';
import { useRequestsPage } from '../controllers/use-requests-page.ts';
import { describeRequest, requestCounts } from '../model/requests-search.ts';
import { RequestsTable } from './requests-table.tsx';

const KIND_NAMES = { join: 'Join', leave: 'Leave' } as const;

/**
 * The requests to join and to leave that wait for a moderator (reference-server extension
 * `requests.*`, permission `membership`): counts per list and kind, filters by list and kind in
 * the URL, each request with its list, address, where it was made, when it was asked, confirmed
 * and when it expires, and the held queue's keyboard triage (j, k, a, r, d, x, u) on one request
 * or the selection. Against a server without the extension it says the queue is not offered.
 */
export function RequestsPage({ accountId }: { accountId: AccountId }) {
  const page = useRequestsPage(accountId);
  const { search, act, tableRef, selection, rows, cursor, chosen, toggle, run } = page;

  if (page.requests.isPending) return <TableSkeleton label="Loading the requests…" />;
  if (page.requests.isError)
    return (
      <ErrorMessage error={page.requests.error} onRetry={() => void page.requests.refetch()} />
    );
  if (!page.shown?.supported)
    return (
      <p className="notice">
        This server does not offer a queue of join and leave requests: it is an extension of the
        Listkeeper reference server, beyond the mailing-list API. Requests that wait for a moderator
        are answered where the server offers it.
      </p>
    );

  const value = page.shown.value;
  const pages = Math.max(1, Math.ceil(value.count / REQUEST_PAGE_LIMITS.default));
  const counts = requestCounts(value.lists, search.list);
  const confirming = page.confirming;
  const what =
    search.kind === 'leave'
      ? 'request to leave'
      : search.kind === 'join'
        ? 'request to join'
        : 'request';

  return (
    <div className="stack">
      <nav aria-label="Requests per list" className="triage-counts">
        <ul>
          <li>
            <Link
              to={page.linkTo({ list: undefined })}
              aria-current={search.list ? undefined : 'page'}
            >
              Every list ({counts.total})
            </Link>
          </li>
          {value.lists.map((entry) => (
            <li key={entry.list}>
              <Link
                to={page.linkTo({ list: entry.list })}
                aria-current={search.list === entry.list ? 'page' : undefined}
              >
                {entry.list} ({entry.join} to join, {entry.leave} to leave)
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Requests by kind" className="triage-counts">
        <ul>
          <li>
            <Link
              to={page.linkTo({ kind: undefined })}
              aria-current={search.kind ? undefined : 'page'}
            >
              Both kinds ({counts.join + counts.leave})
            </Link>
          </li>
          {REQUEST_KINDS.map((kind) => (
            <li key={kind}>
              <Link
                to={page.linkTo({ kind })}
                aria-current={search.kind === kind ? 'page' : undefined}
              >
                {KIND_NAMES[kind]} ({counts[kind]})
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <UndoToasts pending={page.pending} onUndo={page.undo} />
      <p role="status" className="summary">
        {page.outcome}
      </p>
      {act.isError && (
        <div className="stack">
          <p>Nothing was changed: the server refused. The requests are back in the queue.</p>
          <ErrorMessage error={act.error} />
        </div>
      )}

      {rows.length === 0 ? (
        <p className="summary">
          No {what} waits{search.list ? ` on ${search.list}` : ''}.
        </p>
      ) : (
        <div className="stack">
          <div className="toolbar">
            <p className="summary" aria-live="polite" aria-busy={page.requests.isFetching}>
              {plural(value.count, `waiting ${what}`, `waiting ${what}s`)}
              {pages > 1 && `; page ${search.page} of ${pages}`}
            </p>
            <TriageActions
              label="The selected requests"
              disabled={chosen.length === 0}
              names={{
                approve: `Approve selected (${chosen.length})`,
                reject: 'Reject selected…',
                discard: 'Discard selected',
              }}
              onAct={(action) =>
                action === 'reject' ? page.setRejecting(chosen) : run(action, chosen)
              }
            />
          </div>
          <p className="hint">
            Keys: <kbd>j</kbd> and <kbd>k</kbd> move, <kbd>a</kbd> approves, <kbd>r</kbd> rejects,{' '}
            <kbd>d</kbd> discards (the selection, else the request), <kbd>u</kbd> undoes within{' '}
            {UNDO_SECONDS} seconds, <kbd>x</kbd> selects; <kbd>?</kbd> lists them all.
          </p>
          <TableScroll label="Requests">
            <RequestsTable
              ref={tableRef}
              requests={rows}
              selected={new Set(selection.selected.keys())}
              onToggle={(request, on) => toggle([request], on)}
              onToggleAll={(on) => toggle(rows, on)}
              current={cursor.current}
              onCurrent={cursor.setCurrent}
              onAct={(action, request) =>
                action === 'reject' ? page.setRejecting([request]) : run(action, [request])
              }
            />
          </TableScroll>
          <Pagination page={search.page} pages={pages} onPage={page.goToPage} />
        </div>
      )}

      <RejectDialog
        count={page.rejecting.length}
        name={
          page.rejecting.length === 1 && page.rejecting[0]
            ? describeRequest(page.rejecting[0])
            : null
        }
        words={{
          noun: { one: 'request', many: 'requests' },
          explanation: `${page.rejecting.length === 1 ? 'The address is' : 'Each address is'} mailed that the request was refused; its membership does not change.`,
          reasonLabel: 'Reason (optional, mailed with the refusal)',
        }}
        onClose={() => page.setRejecting([])}
        onReject={(reason) => {
          const requests = page.rejecting;
          page.setRejecting([]);
          run('reject', requests, reason);
        }}
      />
      <BulkConfirmDialog
        confirming={confirming && { action: confirming.action, count: confirming.items.length }}
        noun={{ one: 'request', many: 'requests' }}
        consequence={{
          approve: 'Each address joins or leaves its list, and is told so.',
          discard: 'They are dropped: nobody is told, and no membership changes.',
        }}
        onClose={() => page.setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          page.setConfirming(null);
          run(confirming.action, confirming.items, undefined, true);
        }}
      />
    </div>
  );
}
