import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { listQueries } from '../../features/lists/api/list-queries.ts';
import { CreateListForm } from '../../features/lists/components/create-list-form.tsx';
import { ListsTable } from '../../features/lists/components/lists-table.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(listQueries.list(params.accountId ?? null));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Lists" />
      <CreateListForm key={`form-${accountId}`} accountId={accountId} />
      <ListsTable key={accountId} accountId={accountId} />
    </>
  );
}
