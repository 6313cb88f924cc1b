import { PageHeading } from '../../components/page-heading.tsx';
import { accountQueries } from '../../features/accounts/api/account-queries.ts';
import { AccountsTable } from '../../features/accounts/components/accounts-table.tsx';
import { queryClient } from '../query-client.ts';

export function loader() {
  void queryClient.prefetchQuery(accountQueries.list());
  return null;
}

export function Component() {
  return (
    <>
      <PageHeading title="Accounts" />
      <AccountsTable />
    </>
  );
}
