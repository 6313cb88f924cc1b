import { queryOptions } from '@tanstack/react-query';
import { PAGE_LIMITS } from '../../api/constants.ts';
import { apiFor, type AccountId } from './api-client.ts';
import { listMembersKey } from './list-member-keys.ts';
import {
  fetchAllMembers,
  fetchMembersPage,
  type MemberList,
  type MemberSource,
  type MembersQuery,
} from './list-member-pages.ts';

function sourceFor(accountId: AccountId): MemberSource {
  const api = apiFor(accountId);
  return {
    listContacts: (query, signal) => api.call('contacts.list', { query, signal }),
    getContact: (id, signal) => api.call('contacts.get', { params: { id }, signal }),
    memberIds: async (name, signal) =>
      (await api.call('lists.get', { params: { name }, signal })).contacts,
  };
}

const supportKey = (accountId: AccountId) => accountId ?? '';

/** A list's members, for the members page (keys: listMembersKey). */
export const listMemberQueries = {
  page: (accountId: AccountId, list: MemberList, query: MembersQuery) =>
    queryOptions({
      queryKey: listMembersKey(accountId, list, query),
      queryFn: ({ signal }) => readMembersPage(accountId, list, query, signal),
    }),
};

/** One page of the list's members, by the cheapest way the server offers (list-member-pages.ts). */
export function readMembersPage(
  accountId: AccountId,
  list: MemberList,
  query: MembersQuery,
  signal?: AbortSignal,
) {
  return fetchMembersPage(sourceFor(accountId), supportKey(accountId), list, query, signal);
}

/** Every member matching `filters` (exports, bulk work; not cached: read when asked for). */
export function readAllMembers(
  accountId: AccountId,
  list: MemberList,
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
