import { Link } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { administratorQueries } from '../../features/administrators/api/administrator-queries.ts';
import { AdministratorsTable } from '../../features/administrators/components/administrators-table.tsx';
import { queryClient } from '../query-client.ts';

/** Spec §4.8 rule 2: `/users/` without `account_id` lists the group's global administrators. */
export function loader() {
  void queryClient.prefetchQuery(administratorQueries.list(null));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeading title="Global administrators" />
      <p>
        The group&apos;s own administrators and global API keys: they work on every account.{' '}
        <Link to="/accounts">Back to the accounts</Link>
      </p>
      <AdministratorsTable accountId={null} groupLevel />
    </>
  );
}
