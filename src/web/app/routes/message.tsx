import { useParams, type LoaderFunctionArgs } from 'react-router';
import { messageQueries } from '../../features/messages/api/message-queries.ts';
import { MessagePage } from '../../features/messages/components/message-page.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Starts the message's request while the chunk renders. */
export function loader({ params }: LoaderFunctionArgs) {
  if (params.messageId) {
    void queryClient.prefetchQuery(
      messageQueries.detail(params.accountId ?? null, params.messageId),
    );
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
