import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { sectionPath } from '../../../lib/account-scope.ts';
import { accountQueries } from '../api/account-queries.ts';

/** A first view of the group's accounts (spec §4.7); each name opens that account. */
export function AccountsTable() {
  const accounts = useQuery(accountQueries.list());
  if (accounts.isPending) return <TableSkeleton label="Loading accounts…" />;
  if (accounts.isError)
    return <ErrorMessage error={accounts.error} onRetry={() => void accounts.refetch()} />;
  if (accounts.data.length === 0) return <p>The group has no accounts yet.</p>;
  return (
    <TableScroll label="Accounts">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Lists</th>
            <th scope="col">Users</th>
          </tr>
        </thead>
        <tbody>
          {accounts.data.map((account) => (
            <tr key={String(account.id)}>
              <td>
                <Link to={sectionPath(String(account.id), 'contacts')}>{account.name}</Link>
              </td>
              <td>{account.description || '—'}</td>
              <td>{account.lists.length}</td>
              <td>{account.users.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
