import '../members.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRefreshMemberships } from '../../../lib/membership-mutations.ts';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { LazyJobProgress } from '../../../components/lazy-job-progress.tsx';
import { PageSizeSelect } from '../../../components/page-size-select.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { downloadText, toCsv } from '../../../lib/csv.ts';
import type { Job } from '../../../lib/job-runner.ts';
import { useStartJob } from '../../../lib/start-job.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { useJobState } from '../../../lib/use-job.ts';
import { listMemberQueries, readAllMembers } from '../../../lib/list-member-queries.ts';
import type { ListSummary } from '../../../lib/list-queries.ts';
import { membersToCsv } from '../lib/member-export.ts';
import type { MembersPage } from '../../../lib/list-member-pages.ts';
import {
  MEMBER_PAGE_SIZES,
  readMembersSearch,
  writeMembersSearch,
  type MembersSearch,
} from '../lib/members-search.ts';
import { AddMember } from './add-member.tsx';
import { memberName, MembersTable, rowKey } from './members-table.tsx';
import { FormField } from '../../../components/form/form-field.tsx';

type Row = MembersPage['rows'][number];

/**
 * A list's members: search, pages, add, remove (one or the selected), the digest override and
 * the export. Search, page and size live in the URL.
 */
export function MembersBrowser({ accountId, list }: { accountId: AccountId; list: ListSummary }) {
  const [params, setParams] = useSearchParams();
  const state = readMembersSearch(params);
  const members = useQuery({
    ...listMemberQueries.page(accountId, list, state),
    placeholderData: keepPreviousData,
  });
  const update = (change: Partial<MembersSearch>) =>
    setParams(writeMembersSearch({ ...state, page: 1, ...change }));
  const [text, setText] = useState(state.search);
  const searchId = useId();

  const [selected, setSelected] = useState<ReadonlyMap<string, Row>>(new Map());
  const toggle = (rows: Row[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on) next.set(rowKey(row), row);
        else next.delete(rowKey(row));
      }
      return next;
    });

  const page = members.data;
  const { may } = usePermissions();
  return (
    <div className="stack members-page">
      {may('membership.create') && <AddMember accountId={accountId} list={list.name} />}
      <section className="stack" aria-labelledby={`${searchId}-h`}>
        <h2 id={`${searchId}-h`}>
          {list.memberCount === 1 ? '1 member' : `${list.memberCount} members`}
        </h2>
        <div className="toolbar">
          <form
            className="inline-form"
            role="search"
            aria-label="Find members"
            onSubmit={(event) => {
              event.preventDefault();
              update({ search: text });
            }}
          >
            <FormField id={searchId} label="Search the members">
              {(control) => (
                <input
                  {...control}
                  type="search"
                  value={text}
                  onChange={(event) => setText(event.target.value)}
                />
              )}
            </FormField>
            <button type="submit" className="button">
              Search
            </button>
            <PageSizeSelect
              sizes={MEMBER_PAGE_SIZES}
              value={state.limit}
              onChange={(limit) => update({ limit })}
            />
          </form>
          <ExportMembers accountId={accountId} list={list} />
        </div>
        {members.isPending ? (
          <TableSkeleton label="Loading the members…" />
        ) : members.isError ? (
          <ErrorMessage error={members.error} onRetry={() => void members.refetch()} />
        ) : (
          page && (
            <>
              <p className="summary members-summary" role="status" aria-busy={members.isFetching}>
                {summaryOf(page, state)}
                {members.isPlaceholderData && ' (updating…)'}
              </p>
              <BulkRemove
                accountId={accountId}
                list={list.name}
                selected={[...selected.values()]}
                onFinished={() => setSelected(new Map())}
              />
              {page.rows.length > 0 && (
                <MembersTable
                  accountId={accountId}
                  list={list.name}
                  rows={page.rows}
                  selected={new Set(selected.keys())}
                  onToggle={toggle}
                />
              )}
              <Pagination
                page={state.page}
                pages={page.pages}
                onPage={(next) => update({ page: next, search: state.search })}
              />
            </>
          )
        )}
      </section>
    </div>
  );
}

function summaryOf(page: MembersPage, state: MembersSearch): string {
  const pages = page.pages > 1 ? `; page ${state.page} of ${page.pages}` : '';
  if (page.mode === 'search') {
    // Spec-only server: the search ran across all contacts; this page shows the members among them.
    return `${page.rows.length} ${page.rows.length === 1 ? 'member' : 'members'} among ${page.count} matching contacts${pages}.`;
  }
  if (state.search.trim()) {
    if (page.count === 0) return 'No member matches this search.';
    return `${page.count === 1 ? '1 member matches' : `${page.count} members match`}${pages}.`;
  }
  if (page.count === 0) return 'No members yet.';
  return `${page.count === 1 ? '1 member' : `${page.count} members`}${pages}.`;
}

/** Removes the selected members, a few calls at a time, with the job panel (pause, cancel, why). */
function BulkRemove({
  accountId,
  list,
  selected,
  onFinished,
}: {
  accountId: AccountId;
  list: string;
  selected: Row[];
  onFinished: () => void;
}) {
  const refreshMemberships = useRefreshMemberships(accountId);
  const [asking, setAsking] = useState(false);
  const [job, setJob] = useState<Job<Row> | null>(null);
  const jobState = useJobState(job);
  const startJob = useStartJob();
  if (job && jobState) {
    return (
      <LazyJobProgress
        title={`Removing members from ${list}`}
        job={job}
        state={jobState}
        onDownloadFailures={() =>
          downloadText(
            `${list}-members-not-removed.csv`,
            toCsv([
              ['email', 'name', 'reason'],
              ...jobState.failures.map((failure) => [
                failure.item.contact.emails[0]?.email ?? '',
                memberName(failure.item),
                failure.message,
              ]),
            ]),
          )
        }
        onClose={() => setJob(null)}
      />
    );
  }
  if (selected.length === 0) return null;
  return (
    <div className="actions">
      {startJob.loadError && <ErrorMessage error={startJob.loadError} />}
      <button type="button" className="button danger" onClick={() => setAsking(true)}>
        Remove the {selected.length} selected {selected.length === 1 ? 'member' : 'members'}
      </button>
      <ConfirmDialog
        open={asking}
        title={`Remove ${selected.length} ${selected.length === 1 ? 'member' : 'members'} from ${list}?`}
        confirmLabel="Remove them"
        onClose={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          void startJob
            .start(selected, (row) => apiFor(accountId).membership.delete(row.membership.id))
            .then((started) => {
              if (!started) return;
              void started.finished.then(async () => {
                onFinished();
                await refreshMemberships();
              });
              setJob(started);
            });
        }}
      >
        <p>
          They will no longer receive the messages of {list}. The contacts stay in the address book.
        </p>
      </ConfirmDialog>
    </div>
  );
}

type ExportState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; count: number }
  | { status: 'failed'; error: unknown };

/** Downloads every member as CSV (a page of 1000 at a time where the server filters by list). */
function ExportMembers({ accountId, list }: { accountId: AccountId; list: ListSummary }) {
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  async function run() {
    setState({ status: 'running' });
    try {
      const rows = await readAllMembers(accountId, list);
      downloadText(`${list.name}-members.csv`, membersToCsv(rows));
      setState({ status: 'done', count: rows.length });
    } catch (error) {
      setState({ status: 'failed', error });
    }
  }
  return (
    <div className="export-members">
      <button
        type="button"
        className="button"
        disabled={state.status === 'running'}
        onClick={() => void run()}
      >
        {state.status === 'running' ? 'Exporting…' : 'Export as CSV'}
      </button>
      <p role="status" className="summary">
        {state.status === 'done' && `Exported ${state.count} members.`}
      </p>
      {state.status === 'failed' && <ErrorMessage error={state.error} />}
    </div>
  );
}
