import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { administratorQueries } from '../../features/administrators/api/administrator-queries.ts';
import { AdministratorsTable } from '../../features/administrators/components/administrators-table.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(administratorQueries.list(params.accountId ?? null));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Administrators" />
      <AdministratorsTable key={accountId} accountId={accountId} />
    </>
  );
}
