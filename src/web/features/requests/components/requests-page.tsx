import '../../../components/triage/triage.css';
import { REQUEST_KINDS, REQUEST_PAGE_LIMITS } from '../../../../api/schemas/request.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { TriageCounts } from '../../../components/triage/triage-counts.tsx';
import { TriageDialogs } from '../../../components/triage/triage-dialogs.tsx';
import { TriageToolbar } from '../../../components/triage/triage-toolbar.tsx';
import { UndoToasts } from '../../../components/triage/undo-toasts.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { plural } from '../../../lib/use-triage-queue.ts';
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
  const { search, act, tableRef, selection, rows, cursor, chosen, toggle } = page;

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
  // `request`, or `request to join` when one kind is shown.
  const kindWords = search.kind ? ` to ${search.kind}` : '';

  return (
    <div className="stack">
      <TriageCounts
        label="Requests per list"
        links={[
          {
            key: '',
            to: page.linkTo({ list: undefined }),
            current: !search.list,
            text: `Every list (${counts.total})`,
          },
          ...value.lists.map((entry) => ({
            key: entry.list,
            to: page.linkTo({ list: entry.list }),
            current: search.list === entry.list,
            text: `${entry.list} (${entry.join} to join, ${entry.leave} to leave)`,
          })),
        ]}
      />
      <TriageCounts
        label="Requests by kind"
        links={[
          {
            key: '',
            to: page.linkTo({ kind: undefined }),
            current: !search.kind,
            text: `Both kinds (${counts.join + counts.leave})`,
          },
          ...REQUEST_KINDS.map((kind) => ({
            key: kind,
            to: page.linkTo({ kind }),
            current: search.kind === kind,
            text: `${KIND_NAMES[kind]} (${counts[kind]})`,
          })),
        ]}
      />

      <UndoToasts pending={page.pending} onUndo={page.undo} />
      <p role="status" className="summary">
        {page.outcome}
      </p>
      {act.isError && (
        <div className="stack">
          <p>
            Nothing was changed: the server refused. The queue is read again: what still waits is
            back in it (another moderator may have answered first).
          </p>
          <ErrorMessage error={act.error} />
        </div>
      )}

      {rows.length === 0 ? (
        <p className="summary">
          No request{kindWords} waits{search.list ? ` on ${search.list}` : ''}.
        </p>
      ) : (
        <div className="stack">
          <TriageToolbar
            summary={
              <>
                {plural(value.count, `waiting request${kindWords}`, `waiting requests${kindWords}`)}
                {pages > 1 && `; page ${search.page} of ${pages}`}
              </>
            }
            busy={page.requests.isFetching}
            selected={chosen.length}
            label="The selected requests"
            row="request"
            onAct={(action) => page.begin(action, chosen)}
          />
          <TableScroll label="Requests">
            <RequestsTable
              ref={tableRef}
              requests={rows}
              selected={new Set(selection.selected.keys())}
              onToggle={(request, on) => toggle([request], on)}
              onToggleAll={(on) => toggle(rows, on)}
              current={cursor.current}
              onCurrent={cursor.setCurrent}
              onAct={(action, request) => page.begin(action, [request])}
            />
          </TableScroll>
          <Pagination page={search.page} pages={pages} onPage={page.goToPage} />
        </div>
      )}

      <TriageDialogs
        queue={page}
        noun={{ one: 'request', many: 'requests' }}
        nameOf={describeRequest}
        rejected={(count) =>
          `${count === 1 ? 'The address is' : 'Each address is'} mailed that the request was refused; its membership does not change.`
        }
        reasonLabel="Reason (optional, mailed with the refusal)"
        consequence={{
          approve: 'Each address joins or leaves its list, and is told so.',
          discard: 'They are dropped: nobody is told, and no membership changes.',
        }}
      />
    </div>
  );
}
