import { useParams, type LoaderFunctionArgs } from 'react-router';
import { messageQueries } from '../../features/messages/api/message-queries.ts';
import { MessagePage } from '../../features/messages/components/message-page.tsx';
import { readMessageSearch, toMessageQuery } from '../../features/messages/lib/search-params.ts';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/**
 * Starts the message's request while the chunk renders, and beside it that of the list's page it
 * was opened from (its previous and next, use-message-neighbours.ts), which the page waits for too.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  const accountId = params.accountId ?? null;
  if (params.messageId) {
    void queryClient.prefetchQuery(messageQueries.detail(accountId, params.messageId));
    const search = readMessageSearch(new URL(request.url).searchParams);
    void queryClient.prefetchQuery(messageQueries.list(accountId, toMessageQuery(search)));
  }
  return null;
}

export function Component() {
  const accountId = useAccountId();
  const { messageId = '' } = useParams();
  return (
    <MessagePage key={`${accountId}-${messageId}`} accountId={accountId} messageId={messageId} />
  );
}
