import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { requestQueries } from '../../features/requests/api/request-queries.ts';
import { RequestsPage } from '../../features/requests/components/requests-page.tsx';
import {
  readRequestsSearch,
  requestsQuery,
} from '../../features/requests/model/requests-search.ts';
import { SECTION_TITLES, useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Starts the page's request while the chunk renders (the URL read as the page reads it). */
export function loader({ params, request }: LoaderFunctionArgs) {
  const search = readRequestsSearch(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(
    requestQueries.list(params.accountId ?? null, requestsQuery(search)),
  );
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title={SECTION_TITLES.requests} />
      <RequestsPage key={accountId} accountId={accountId} />
    </>
  );
}
