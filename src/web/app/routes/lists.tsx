import { PageHeading } from '../../components/page-heading.tsx';
import { CreateListForm } from '../../features/lists/components/create-list-form.tsx';
import { ListsTable } from '../../features/lists/components/lists-table.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { usePermissions } from '../../lib/permissions.ts';

// No loader prefetch here: with one, the page sent GET /lists/ twice (seen in e2e/accounts.spec.ts;
// cause not yet found), and every object read counts against the hourly allowance (spec §8).
export function Component() {
  const accountId = useAccountId();
  const { may } = usePermissions();
  return (
    <>
      <PageHeading title="Lists" />
      {may('lists.create') && <CreateListForm key={`form-${accountId}`} accountId={accountId} />}
      <ListsTable key={accountId} accountId={accountId} />
    </>
  );
}
