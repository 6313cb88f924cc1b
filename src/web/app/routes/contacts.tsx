import { redirect, type LoaderFunctionArgs } from 'react-router';
import { callerQueries } from '../../lib/caller-queries.ts';
import { confinedLists, powersOf } from '../../lib/powers.ts';
import { getSession } from '../../lib/session.ts';
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

/**
 * Starts the request for the page in the URL while the chunk renders (same options as the table).
 * A principal confined to some lists (spec §2.6 limit_lists) sees their members: without a list
 * in the URL it goes to its first list's (the contacts, their export and bulk work follow it).
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const accountId = params.accountId ?? null;
  const url = new URL(request.url);
  const search = readContactSearch(url.searchParams);
  if (!search.list) {
    const session = getSession();
    const global = session.status === 'signed-in' && session.principal.global;
    const caller = await queryClient.ensureQueryData(callerQueries.self()).catch(() => undefined);
    const [first] = confinedLists(powersOf(caller, global)) ?? [];
    if (first !== undefined) {
      url.searchParams.set('list', first);
      url.searchParams.delete('orphans');
      return redirect(`${url.pathname}?${url.searchParams.toString()}`);
    }
  }
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
