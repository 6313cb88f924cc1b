import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListUpdate } from '../../../../api/schemas/list.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { reportingApi } from '../../../lib/ignored-fields.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';
import { listQueries, updateQuery, withMemberIds } from '../../../lib/list-queries.ts';

/**
 * Spec §4.4 update: only the changed fields (spec §1 rule 6), asking for the member count instead
 * of the ids where the server is known to offer it (lib/list-queries.ts). A rename moves the list
 * to a new address, so the answer is stored under its (possibly new) name and the collection
 * refreshes.
 *
 * @example
 * const updateList = useUpdateList(accountId);
 * updateList.mutate({ name: 'news', changes: { moderate: 10 } });
 */
export function useUpdateList(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'lists', 'update'],
    mutationFn: async ({ name, changes }: { name: string; changes: ListUpdate }) => {
      // What the server did not store (X-Ignored-Fields) goes back to the form, on its field.
      const { api, ignored } = reportingApi(accountId);
      const list = await api.call('lists.update', {
        params: { name },
        body: changes,
        query: updateQuery(accountId),
      });
      return { list, ignored: ignored() };
    },
    onSuccess: ({ list }, { name }) => {
      const detail = listQueries.detail(accountId, list.name).queryKey;
      const whole = withMemberIds(
        list,
        queryClient.getQueryData(listQueries.detail(accountId, name).queryKey),
      );
      if (whole) queryClient.setQueryData(detail, whole);
      const renamed = list.name !== name;
      return Promise.all([
        !whole && queryClient.invalidateQueries({ queryKey: detail }),
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
