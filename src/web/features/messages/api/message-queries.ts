import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../../../api/errors.ts';
import type { Id } from '../../../../api/primitives.ts';
import type { MessageQuery } from '../../../../api/schemas/message.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { refuseDeleted } from './deleted-messages.ts';
import { rootKeys } from '../../../lib/query-keys.ts';

/** Spec §4.5. Keys: `[accountId, 'messages', 'list' | 'detail' | 'thread' | 'images', …]`. */
export const messageQueries = {
  all: rootKeys.messages,
  list: (accountId: AccountId, query: MessageQuery) =>
    queryOptions({
      queryKey: [...messageQueries.all(accountId), 'list', query] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('messages.list', { query, signal }),
    }),
  detail: (accountId: AccountId, id: Id) =>
    queryOptions({
      queryKey: [...messageQueries.all(accountId), 'detail', String(id)] as const,
      queryFn: ({ signal }) => {
        refuseDeleted(accountId, id);
        return apiFor(accountId).call('messages.get', { params: { id }, signal });
      },
    }),
};

/**
 * The contact a sender's address belongs to (spec §4.2: an address is an email's identifier),
 * or null when no contact has it. Under the contacts' keys, so their changes refresh it.
 */
export function senderContactQuery(accountId: AccountId, address: string) {
  return queryOptions({
    queryKey: [...rootKeys.contacts(accountId), 'by-address', address.toLowerCase()] as const,
    queryFn: async ({ signal }) => {
      try {
        const email = await apiFor(accountId).call('emails.get', {
          params: { id: address },
          signal,
        });
        return { contact: email.contact };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}
