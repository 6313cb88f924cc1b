import { useQuery } from '@tanstack/react-query';
import type { Administrator } from '../../../../api/schemas/administrator.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { administratorQueries } from '../api/administrator-queries.ts';

/** Spec §9 rule 3: version 2 keys have a description and no username. */
function nameOf(administrator: Administrator): string {
  return administrator.username ?? administrator.description ?? `Key ${String(administrator.id)}`;
}

/** A first view of the administrators: users and API keys with their permissions. */
export function AdministratorsTable({ accountId }: { accountId: AccountId }) {
  const administrators = useQuery(administratorQueries.list(accountId));
  if (administrators.isPending) return <TableSkeleton label="Loading administrators…" />;
  if (administrators.isError) {
    return (
      <ErrorMessage error={administrators.error} onRetry={() => void administrators.refetch()} />
    );
  }
  if (administrators.data.length === 0) return <p>No administrators.</p>;
  return (
    <TableScroll label="Administrators">
      <table>
        <thead>
          <tr>
            <th scope="col">Username or key</th>
            <th scope="col">Kind</th>
            <th scope="col">Permissions</th>
          </tr>
        </thead>
        <tbody>
          {administrators.data.map((administrator) => (
            <tr key={String(administrator.id)}>
              <td>{nameOf(administrator)}</td>
              <td>{administrator.api > 0 ? `API key (v${administrator.api})` : 'User'}</td>
              <td>{administrator.permissions.join(', ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
