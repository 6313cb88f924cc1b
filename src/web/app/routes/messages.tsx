import type { LoaderFunctionArgs } from 'react-router';
import type { MessageQuery } from '../../../api/schemas/message.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { messageQueries } from '../../features/messages/api/message-queries.ts';
import { MessagesTable } from '../../features/messages/components/messages-table.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Spec §4.5: the newest first, the default page size. */
const LATEST: MessageQuery = { page: 1, limit: 10, direction: 'desc' };

export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(messageQueries.list(params.accountId ?? null, LATEST));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Messages" />
      <MessagesTable key={accountId} accountId={accountId} query={LATEST} />
    </>
  );
}
