import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageSend } from '../../../../api/schemas/message.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { messageQueries } from './message-queries.ts';

/**
 * Spec §4.5 send: answers only `{success: 1}` (the message is processed later), so the account's
 * message queries are invalidated for the archive to show it once it is there.
 *
 * @example
 * useSendMessage(accountId).mutate({ list: 'news', subject: 'Hello', content_plain: 'Hi all' });
 */
export function useSendMessage(accountId: AccountId) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [accountId, 'messages', 'send'],
    mutationFn: (input: MessageSend) => apiFor(accountId).messages.send(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageQueries.all(accountId) }),
  });
}
