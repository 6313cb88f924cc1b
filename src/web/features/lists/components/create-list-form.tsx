import { useQuery } from '@tanstack/react-query';
import { lazyForm } from '../../../components/form/lazy-form.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { creatableListNames } from '../model/list-limit.ts';

// The form's code loads after the page (issue 17 item 9): the lists table comes first.
const NewListForm = lazyForm(() => import('./new-list-form.tsx').then((m) => m.NewListForm));

/**
 * The way to a new list. A principal limited to some lists (spec §2.6 limit_lists) may create
 * only those of them the account has not yet, and is told so; with none left, nothing is offered.
 */
export function CreateListForm({ accountId }: { accountId: AccountId }) {
  const powers = usePermissions();
  const limited = powers.known && powers.limitLists !== null;
  // The table's own read (the same query): no request of its own, and none unless limited.
  const lists = useQuery({ ...listQueries.list(accountId), enabled: limited });
  const only = creatableListNames(powers, lists.data ?? []);
  if (only !== null) {
    if (lists.isPending) return null;
    if (only.length === 0)
      return (
        <p className="hint">
          You are limited to some lists (limit_lists): a new list would be outside them.
        </p>
      );
  }
  return <NewListForm accountId={accountId} only={only} />;
}
