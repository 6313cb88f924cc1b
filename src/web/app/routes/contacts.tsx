import type { LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { contactQueries } from '../../lib/contact-queries.ts';
import { listQueries } from '../../lib/list-queries.ts';
import { ContactsBrowser } from '../../features/contacts/components/contacts-browser.tsx';
import {
  loadVirtualRows,
  RENDER_ALL_UP_TO,
} from '../../features/contacts/components/contacts-table.tsx';
import { readContactSearch, toContactQuery } from '../../features/contacts/lib/search-params.ts';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Starts the request for the page in the URL while the chunk renders (same options as the table). */
export function loader({ params, request }: LoaderFunctionArgs) {
  const accountId = params.accountId ?? null;
  const search = readContactSearch(new URL(request.url).searchParams);
  // Filtered by a list, the page starts from the list (its members are read by its ids or `list`).
  if (search.list) void queryClient.prefetchQuery(listQueries.detail(accountId, search.list));
  else void queryClient.prefetchQuery(contactQueries.list(accountId, toContactQuery(search)));
  // A long page needs the virtualizer: fetched beside the data, not after it.
  if (search.limit > RENDER_ALL_UP_TO) void loadVirtualRows();
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
