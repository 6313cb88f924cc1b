import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { contactQueries } from '../../lib/contact-queries.ts';
import { ContactsBrowser } from '../../features/contacts/components/contacts-browser.tsx';
import { readContactSearch, toContactQuery } from '../../features/contacts/lib/search-params.ts';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Starts the request for the page in the URL while the chunk renders (same options as the table). */
export function loader({ params, request }: LoaderFunctionArgs) {
  const query = toContactQuery(readContactSearch(new URL(request.url).searchParams));
  void queryClient.prefetchQuery(contactQueries.list(params.accountId ?? null, query));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Contacts" />
      <ContactsBrowser key={accountId} accountId={accountId} />
    </>
  );
}
