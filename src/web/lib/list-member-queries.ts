import { queryOptions } from '@tanstack/react-query';
import { PAGE_LIMITS } from '../../api/constants.ts';
import type { List } from '../../api/schemas/list.ts';

/** What reading members needs of a list: its name and its members' ids (spec §2.4). */
type ListMembers = Pick<List, 'name' | 'contacts'>;
import { apiFor, type AccountId } from './api-client.ts';
import {
  fetchAllMembers,
  fetchMembersPage,
  idsOfPage,
  type MemberSource,
  type MembersQuery,
} from './list-member-pages.ts';

function sourceFor(accountId: AccountId): MemberSource {
  const api = apiFor(accountId);
  return {
    listContacts: (query, signal) => api.call('contacts.list', { query, signal }),
    getContact: (id, signal) => api.call('contacts.get', { params: { id }, signal }),
  };
}

const supportKey = (accountId: AccountId) => accountId ?? '';

/**
 * A list's members, for the members page and the contacts page filtered by a list. Keys sit under
 * `[accountId, 'contacts']` so any contact or membership change anywhere refreshes them.
 */
export const listMemberQueries = {
  page: (accountId: AccountId, list: ListMembers, query: MembersQuery) =>
    // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the list is in the key by its name, size and this page's ids: what the read depends on
    queryOptions({
      // The page's ids are in the key: paging by ids reads other contacts once the list changed.
      queryKey: [
        accountId,
        'contacts',
        'members',
        list.name,
        query,
        list.contacts.length,
        idsOfPage(list.contacts, query.page, query.limit).join(','),
      ] as const,
      queryFn: ({ signal }) => readMembersPage(accountId, list, query, signal),
    }),
};

/** One page of the list's members, by the cheapest way the server offers (list-member-pages.ts). */
export function readMembersPage(
  accountId: AccountId,
  list: ListMembers,
  query: MembersQuery,
  signal?: AbortSignal,
) {
  return fetchMembersPage(sourceFor(accountId), supportKey(accountId), list, query, signal);
}

/** Every member matching `filters` (exports, bulk work; not cached: read when asked for). */
export function readAllMembers(
  accountId: AccountId,
  list: ListMembers,
  signal?: AbortSignal,
  filters?: Pick<MembersQuery, 'search' | 'email'>,
  onProgress?: (rows: number, pages: number) => void,
) {
  return fetchAllMembers(
    sourceFor(accountId),
    supportKey(accountId),
    list,
    PAGE_LIMITS.contacts.max,
    signal,
    filters,
    onProgress,
  );
}
