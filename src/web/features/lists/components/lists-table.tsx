import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { listQueries } from '../api/list-queries.ts';
import { DeleteListDialog } from './delete-list-dialog.tsx';

/** A first view of the account's lists: names, descriptions, member counts. */
export function ListsTable({ accountId }: { accountId: AccountId }) {
  const lists = useQuery(listQueries.list(accountId));
  const [deleting, setDeleting] = useState<string | null>(null);
  if (lists.isPending) return <TableSkeleton label="Loading lists…" />;
  if (lists.isError)
    return <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />;
  if (lists.data.length === 0) return <p>No lists yet.</p>;
  return (
    <>
      <TableScroll label="Lists">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Members</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lists.data.map((list) => (
              <tr key={String(list.id)}>
                <td>{list.name}</td>
                <td>{list.description || '—'}</td>
                <td>{list.contacts.length}</td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    onClick={() => setDeleting(list.name)}
                  >
                    Delete<span className="visually-hidden"> {list.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <DeleteListDialog accountId={accountId} name={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
