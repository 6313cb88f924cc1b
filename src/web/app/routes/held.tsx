import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { heldQueries } from '../../features/held/api/held-queries.ts';
import { HeldPage } from '../../features/held/components/held-page.tsx';
import { HELD_PAGE_LIMITS } from '../../../api/schemas/held.ts';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Starts the first page's request while the chunk renders (the list filter read as the page does). */
export function loader({ params, request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  if (!search.has('page')) {
    const list = search.get('list');
    void queryClient.prefetchQuery(
      heldQueries.list(params.accountId ?? null, {
        page: 1,
        limit: HELD_PAGE_LIMITS.default,
        ...(list ? { list } : {}),
      }),
    );
  }
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Held messages" />
      <HeldPage key={accountId} accountId={accountId} />
    </>
  );
}
