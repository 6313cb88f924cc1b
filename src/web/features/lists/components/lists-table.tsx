import '../lists.css';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { reachableLists } from '../../../lib/reach.ts';
import { DeleteListDialog } from './delete-list-dialog.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function CreatedDate({ created }: { created: string }) {
  const date = new Date(created);
  if (Number.isNaN(date.getTime())) return <>{created}</>;
  return (
    <time dateTime={created} title={date.toLocaleString()}>
      {dateFormat.format(date)}
    </time>
  );
}

/** The account's lists, filtered as one types (GET /lists/ returns them all: spec §4.4). */
export function ListsTable({ accountId }: { accountId: AccountId }) {
  const lists = useQuery(listQueries.list(accountId));
  const [deleting, setDeleting] = useState<string | null>(null);
  const powers = usePermissions();
  const [search, setSearch] = useState('');
  const searchId = useId();
  if (lists.isPending) return <TableSkeleton label="Loading lists…" />;
  if (lists.isError)
    return <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />;
  // Spec §2.6 limit_lists: a limited principal is shown its own lists only.
  const all = reachableLists(powers, lists.data);
  if (all.length === 0) return <p>No lists yet.</p>;
  const needle = search.trim().toLowerCase();
  const shown = needle
    ? all.filter(
        (list) =>
          list.name.toLowerCase().includes(needle) ||
          list.description.toLowerCase().includes(needle),
      )
    : all;
  return (
    <>
      <search className="field list-search">
        <label htmlFor={searchId}>Search lists</label>
        <input
          id={searchId}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          aria-describedby={`${searchId}-count`}
        />
        <p id={`${searchId}-count`} className="hint" aria-live="polite">
          {shown.length === all.length
            ? `${all.length} ${all.length === 1 ? 'list' : 'lists'}`
            : `${shown.length} of ${all.length} lists match`}
        </p>
      </search>
      {shown.length === 0 ? (
        <p>No list matches “{search}”.</p>
      ) : (
        <TableScroll label="Lists">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Members</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((list) => (
                <tr key={String(list.id)}>
                  <td>
                    <Link to={encodeURIComponent(list.name)}>{list.name}</Link>
                  </td>
                  <td>{list.description || '—'}</td>
                  <td>{list.memberCount}</td>
                  <td>
                    <CreatedDate created={list.created} />
                  </td>
                  <td>
                    {powers.may('lists.delete') && (
                      <button
                        type="button"
                        className="button small"
                        onClick={() => setDeleting(list.name)}
                      >
                        Delete<span className="visually-hidden"> {list.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <DeleteListDialog accountId={accountId} name={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
