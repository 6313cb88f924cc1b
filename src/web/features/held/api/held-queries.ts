import { queryOptions } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type { HeldQuery } from '../../../../api/schemas/held.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { callExtension } from '../../../lib/extensions.ts';
import { rootKeys } from '../../../lib/query-keys.ts';

/**
 * The reference server's held queue (extension `held.*`, permission `approval`). Keys:
 * `[accountId, 'held', 'list' | 'detail', …]`. The list answers `{supported: false}` on a server
 * without the extension (lib/extensions.ts): the page says the queue is not offered.
 */
export const heldQueries = {
  all: rootKeys.held,
  lists: (accountId: AccountId) => [...heldQueries.all(accountId), 'list'] as const,
  list: (accountId: AccountId, query: HeldQuery) =>
    queryOptions({
      queryKey: [...heldQueries.lists(accountId), query] as const,
      queryFn: ({ signal }) =>
        callExtension(() => apiFor(accountId).call('held.list', { query, signal })),
    }),
  detail: (accountId: AccountId, id: Id) =>
    queryOptions({
      queryKey: [...heldQueries.all(accountId), 'detail', String(id)] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('held.get', { params: { id }, signal }),
      // A held message does not change while it waits; it only leaves.
      staleTime: Infinity,
    }),
  /** The message as it arrived, asked only when the moderator opens it (it may be megabytes). */
  source: (accountId: AccountId, id: Id) =>
    queryOptions({
      queryKey: [...heldQueries.all(accountId), 'source', String(id)] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('held.source', { params: { id }, signal }),
      staleTime: Infinity,
    }),
};
