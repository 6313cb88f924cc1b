import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../../../api/client.ts';
import type {
  MemberRequest,
  RequestOutcome,
  RequestPage,
} from '../../../../api/schemas/request.ts';
import { REQUEST_BULK_MAX } from '../../../../api/schemas/request.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import type { ExtensionAnswer } from '../../../lib/extensions.ts';
import { rootKeys } from '../../../lib/query-keys.ts';
import type { TriageInput } from '../../../lib/use-undoable-actions.ts';
import { requestKey, withoutRequests } from '../lib/request-page-data.ts';
import { requestQueries } from './request-queries.ts';

/** An action on requests; a reject's `reason` is mailed to the requester. */
export type RequestActionInput = TriageInput<MemberRequest>;

/**
 * Approves, rejects or discards waiting requests, one (`/requests/:id/<action>/`) or many
 * (`/requests/bulk/`, all or none, REQUEST_BULK_MAX a request).
 */
export async function sendRequestAction(
  api: ApiClient,
  { action, items, reason }: RequestActionInput,
): Promise<RequestOutcome[]> {
  const [only] = items;
  if (items.length === 1 && only) {
    const params = { id: only.id };
    if (action === 'reject')
      return [
        await api.call('requests.reject', { params, body: reason === undefined ? {} : { reason } }),
      ];
    return [
      await api.call(action === 'approve' ? 'requests.approve' : 'requests.discard', { params }),
    ];
  }
  const results = [];
  for (let start = 0; start < items.length; start += REQUEST_BULK_MAX) {
    const ids = items.slice(start, start + REQUEST_BULK_MAX).map((request) => request.id);
    const body = reason === undefined ? { action, ids } : { action, ids, reason };
    results.push(...(await api.call('requests.bulk', { body })).results);
  }
  return results;
}

/**
 * Sends a requests-queue action. Optimistic but honest: the requests leave the queue as shown at
 * once, and come back, with the server's reason, if it refuses (the queue is read again either
 * way). An approval changes memberships: the contacts' and the lists' queries are refreshed too.
 */
export function useRequestAction(accountId: AccountId) {
  const queryClient = useQueryClient();
  const lists = requestQueries.lists(accountId);
  return useMutation({
    mutationKey: [...requestQueries.all(accountId), 'act'],
    mutationFn: (input: RequestActionInput) => sendRequestAction(apiFor(accountId), input),
    onMutate: async ({ items }) => {
      await queryClient.cancelQueries({ queryKey: lists });
      const keys = items.map(requestKey);
      queryClient.setQueriesData<ExtensionAnswer<RequestPage>>({ queryKey: lists }, (answer) =>
        withoutRequests(answer, keys),
      );
    },
    onSettled: (_results, _error, { action }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: lists }),
        ...(action === 'approve'
          ? [
              queryClient.invalidateQueries({ queryKey: rootKeys.contacts(accountId) }),
              queryClient.invalidateQueries({ queryKey: rootKeys.lists(accountId) }),
            ]
          : []),
      ]),
  });
}
