import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';
import type { MembersMode } from '../../../lib/list-member-pages.ts';

// The paging of a list's members loads once a list filter is chosen (bench/bundle-size.ts).
const listMembers = () => import('../../../lib/list-member-queries.ts');
import { listQueries } from '../../../lib/list-queries.ts';
import { listMembersKey } from '../../../lib/list-member-keys.ts';
import { fetchAllContacts } from '../lib/export-contacts.ts';
import { toContactQuery, type ContactSearch } from '../lib/search-params.ts';

/** One page of the address book, however it was read. */
export interface ContactsView {
  contacts: Contact[];
  /**
   * Contacts matching in all; for a list filtered by a search on a server with spec v2 only
   * (`mode` 'search'), the matching contacts scanned, of which the page shows the members.
   */
  count: number;
  pages: number;
  mode: 'all' | MembersMode;
}

/** Reads every contact the view matches (all pages), for the export and bulk work. */
export type ReadAll = (
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
) => Promise<Contact[]>;

/**
 * The contacts page's data: a page of contacts by spec §4.1 get many, or, filtered by a list, a
 * page of that list's members, by the `list` extension where the server has it and else from the
 * list's `contacts` ids (lib/list-member-pages.ts). `readAll` reads every match the same way, so an
 * export or a bulk job never widens to contacts off the list on a server that ignores `list`.
 */
export function useContactsPage(accountId: AccountId, state: ContactSearch) {
  const query = toContactQuery(state);
  const byList = state.list !== '';
  const everyone = useQuery({
    ...contactQueries.list(accountId, query),
    placeholderData: keepPreviousData,
    enabled: !byList,
  });
  const list = useQuery({ ...listQueries.detail(accountId, state.list), enabled: byList });
  const membersQuery = {
    page: state.page,
    limit: state.limit,
    search: state.search,
    email: state.email,
  };
  const members = useQuery({
    // The members page's own key: the same page of the same list is read once.
    queryKey: listMembersKey(
      accountId,
      list.data ?? { name: state.list, contacts: [] },
      membersQuery,
    ),
    queryFn: async ({ signal }) => {
      if (!list.data) throw new Error('The list is not read yet');
      const { readMembersPage } = await listMembers();
      return readMembersPage(accountId, list.data, membersQuery, signal);
    },
    placeholderData: keepPreviousData,
    enabled: byList && list.data !== undefined,
  });

  if (!byList) {
    const data: ContactsView | undefined = everyone.data && {
      contacts: everyone.data.data,
      count: everyone.data.count,
      pages: Math.max(1, Math.ceil(everyone.data.count / state.limit)),
      mode: 'all',
    };
    const readAll: ReadAll = (onProgress, signal) =>
      fetchAllContacts(
        (pageQuery, pageSignal) =>
          apiFor(accountId).call('contacts.list', { query: pageQuery, signal: pageSignal }),
        query,
        onProgress,
        signal,
      );
    return { ...resultOf(everyone), data, readAll };
  }
  const source = list.data === undefined || list.isError ? list : members;
  const data: ContactsView | undefined = members.data && {
    contacts: members.data.rows.map((row) => row.contact),
    count: members.data.count,
    pages: members.data.pages,
    mode: members.data.mode,
  };
  const readAll: ReadAll = async (onProgress, signal) => {
    if (!list.data) return [];
    const { readAllMembers } = await listMembers();
    const rows = await readAllMembers(
      accountId,
      list.data,
      signal,
      { search: state.search, email: state.email },
      (done) => onProgress?.(done, list.data.contacts.length),
    );
    return rows.map((row) => row.contact);
  };
  return { ...resultOf(source), data, readAll };
}

function resultOf(query: {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => Promise<unknown>;
}) {
  return {
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    isFetching: query.isFetching,
    isPlaceholderData: query.isPlaceholderData,
    refetch: query.refetch,
  };
}
