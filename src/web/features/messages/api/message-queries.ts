import { queryOptions } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type { MessageQuery } from '../../../../api/schemas/message.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';

/** Spec §4.5. Keys: `[accountId, 'messages', 'list' | 'detail', …]`. */
export const messageQueries = {
  all: (accountId: AccountId) => [accountId, 'messages'] as const,
  list: (accountId: AccountId, query: MessageQuery) =>
    queryOptions({
      queryKey: [...messageQueries.all(accountId), 'list', query] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('messages.list', { query, signal }),
    }),
  detail: (accountId: AccountId, id: Id) =>
    queryOptions({
      queryKey: [...messageQueries.all(accountId), 'detail', id] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('messages.get', { params: { id }, signal }),
    }),
};
