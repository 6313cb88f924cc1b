import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { ParentLink } from '../../components/parent-link.tsx';
import { listQueries } from '../../lib/list-queries.ts';
import { ComposeForm } from '../../features/messages/components/compose-form.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** The account's lists, to choose one, while the chunk renders. */
export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(listQueries.list(params.accountId ?? null));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <ParentLink label="All messages" />
      <PageHeading title="New message" />
      <ComposeForm key={accountId} accountId={accountId} />
    </>
  );
}
