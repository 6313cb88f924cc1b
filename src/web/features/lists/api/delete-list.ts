import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';
import { listQueries } from '../../../lib/list-queries.ts';

/**
 * Spec §4.4 delete. The list's memberships go with it, so the account's contacts (whose `lists`
 * name their memberships) are invalidated with its lists.
 *
 * @example
 * const deleteList = useDeleteList(accountId);
 * deleteList.mutate('newsletter', { onSuccess: closeDialog });
 */
export function useDeleteList(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'lists', 'delete'],
    mutationFn: (name: string) => apiFor(accountId).lists.delete(name),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listQueries.all(accountId) }),
        queryClient.invalidateQueries({ queryKey: contactQueries.all(accountId) }),
      ]),
  });
}
