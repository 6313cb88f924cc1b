import { queryOptions } from '@tanstack/react-query';
import type { Id } from '../../../../api/primitives.ts';
import type { ContactQuery } from '../../../../api/schemas/contact.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';

/** Spec §4.1. Keys: `[accountId, 'contacts', 'list' | 'detail', …]`. */
export const contactQueries = {
  all: (accountId: AccountId) => [accountId, 'contacts'] as const,
  list: (accountId: AccountId, query: ContactQuery) =>
    queryOptions({
      queryKey: [...contactQueries.all(accountId), 'list', query] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('contacts.list', { query, signal }),
    }),
  detail: (accountId: AccountId, id: Id) =>
    queryOptions({
      queryKey: [...contactQueries.all(accountId), 'detail', id] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('contacts.get', { params: { id }, signal }),
    }),
};
