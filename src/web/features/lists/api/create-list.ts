import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListCreate } from '../../../../api/schemas/list.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';

/**
 * Spec §4.4 create. Invalidates every list query of the account (`[accountId, 'lists']`).
 *
 * @example
 * const createList = useCreateList(accountId);
 * createList.mutate({ name: 'newsletter' }, { onSuccess: () => form.reset() });
 */
export function useCreateList(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'lists', 'create'],
    mutationFn: (input: ListCreate) => apiFor(accountId).lists.create(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listQueries.all(accountId) }),
  });
}
