import { queryOptions } from '@tanstack/react-query';
import type { RequestQuery } from '../../../../api/schemas/request.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { callExtension } from '../../../lib/extensions.ts';
import { rootKeys } from '../../../lib/query-keys.ts';

/**
 * The reference server's queue of join and leave requests waiting for a moderator (extension
 * `requests.*`, permission `membership`). Keys: `[accountId, 'requests', 'list', query]`. The list
 * answers `{supported: false}` on a server without the extension (lib/extensions.ts): the page
 * says the queue is not offered.
 */
export const requestQueries = {
  all: rootKeys.requests,
  lists: (accountId: AccountId) => [...requestQueries.all(accountId), 'list'] as const,
  list: (accountId: AccountId, query: RequestQuery) =>
    queryOptions({
      queryKey: [...requestQueries.lists(accountId), query] as const,
      queryFn: ({ signal }) =>
        callExtension(() => apiFor(accountId).call('requests.list', { query, signal })),
    }),
};
