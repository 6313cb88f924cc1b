import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { messageQueries } from '../../features/messages/api/message-queries.ts';
import { MessagesBrowser } from '../../features/messages/components/messages-browser.tsx';
import { readMessageSearch, toMessageQuery } from '../../features/messages/lib/search-params.ts';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Starts the request for the page in the URL while the chunk renders (same options as the list). */
export function loader({ params, request }: LoaderFunctionArgs) {
  const query = toMessageQuery(readMessageSearch(new URL(request.url).searchParams));
  void queryClient.prefetchQuery(messageQueries.list(params.accountId ?? null, query));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Messages" />
      <MessagesBrowser key={accountId} accountId={accountId} />
    </>
  );
}
