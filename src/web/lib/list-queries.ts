import { queryOptions } from '@tanstack/react-query';
import { apiFor, type AccountId } from './api-client.ts';

/** Spec §4.4. Keys: `[accountId, 'lists', 'list' | 'detail', …]`. */
export const listQueries = {
  all: (accountId: AccountId) => [accountId, 'lists'] as const,
  list: (accountId: AccountId) =>
    queryOptions({
      queryKey: [...listQueries.all(accountId), 'list'] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('lists.list', { signal }),
    }),
  detail: (accountId: AccountId, name: string) =>
    queryOptions({
      queryKey: [...listQueries.all(accountId), 'detail', name] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('lists.get', { params: { name }, signal }),
    }),
};
