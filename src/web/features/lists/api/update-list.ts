import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListUpdate } from '../../../../api/schemas/list.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';
import { listQueries } from '../../../lib/list-queries.ts';

/**
 * Spec §4.4 update: only the changed fields (spec §1 rule 6). A rename moves the list to a new
 * address, so the answer is stored under its (possibly new) name and the collection refreshes.
 *
 * @example
 * const updateList = useUpdateList(accountId);
 * updateList.mutate({ name: 'news', changes: { moderate: 10 } });
 */
export function useUpdateList(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'lists', 'update'],
    mutationFn: ({ name, changes }: { name: string; changes: ListUpdate }) =>
      apiFor(accountId).lists.update(name, changes),
    onSuccess: (list, { name }) => {
      queryClient.setQueryData(listQueries.detail(accountId, list.name).queryKey, list);
      const renamed = list.name !== name;
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: listQueries.list(accountId).queryKey }),
        // The old name no longer exists: stale, but not refetched while its page is still open.
        renamed &&
          queryClient.invalidateQueries({
            queryKey: listQueries.detail(accountId, name).queryKey,
            refetchType: 'none',
          }),
        // Memberships name their list (spec §2.3).
        renamed && queryClient.invalidateQueries({ queryKey: contactQueries.all(accountId) }),
      ]);
    },
  });
}
