import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Message } from '../../../../api/schemas/message.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { findThread } from '../lib/find-thread.ts';
import { messageQueries } from './message-queries.ts';

/**
 * The thread of a message (lib/find-thread.ts). Every read goes through the message and list
 * queries, so a message or a page already shown is not read again.
 */
export function useMessageThread(accountId: AccountId, messageId: Message['id']) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...messageQueries.all(accountId), 'thread', String(messageId)] as const,
    queryFn: async () =>
      findThread(await queryClient.fetchQuery(messageQueries.detail(accountId, messageId)), {
        message: (id) => queryClient.fetchQuery(messageQueries.detail(accountId, id)),
        page: (query) => queryClient.fetchQuery(messageQueries.list(accountId, query)),
      }),
  });
}
