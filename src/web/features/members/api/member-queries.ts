import { queryOptions } from '@tanstack/react-query';
import { PAGE_LIMITS } from '../../../../api/constants.ts';
import type { List } from '../../../../api/schemas/list.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import {
  fetchAllMembers,
  fetchMembersPage,
  idsOfPage,
  type MemberSource,
  type MembersQuery,
} from '../lib/member-paging.ts';

function sourceFor(accountId: AccountId): MemberSource {
  const api = apiFor(accountId);
  return {
    listContacts: (query, signal) => api.call('contacts.list', { query, signal }),
    getContact: (id, signal) => api.call('contacts.get', { params: { id }, signal }),
  };
}

const supportKey = (accountId: AccountId) => accountId ?? '';

/**
 * A list's members. Keys sit under `[accountId, 'contacts']` and `[accountId, 'lists']` as the
 * other features' do, so any contact or membership change anywhere refreshes them.
 */
export const memberQueries = {
  /** The list (spec §4.4), under the key the lists feature uses for it. */
  list: (accountId: AccountId, name: string) =>
    queryOptions({
      queryKey: [accountId, 'lists', 'detail', name] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('lists.get', { params: { name }, signal }),
    }),
  page: (accountId: AccountId, list: List, query: MembersQuery) =>
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
      queryFn: ({ signal }) =>
        fetchMembersPage(sourceFor(accountId), supportKey(accountId), list, query, signal),
    }),
};

/** Every member, for the export (not cached: it is read when asked for). */
export function readAllMembers(accountId: AccountId, list: List, signal?: AbortSignal) {
  return fetchAllMembers(
    sourceFor(accountId),
    supportKey(accountId),
    list,
    PAGE_LIMITS.contacts.max,
    signal,
  );
}
