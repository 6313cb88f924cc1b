import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { fieldQueries } from '../../features/fields/api/field-queries.ts';
import { FieldsPage } from '../../features/fields/components/fields-page.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(fieldQueries.list(params.accountId ?? null));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Custom fields" />
      <FieldsPage key={accountId} accountId={accountId} />
    </>
  );
}
