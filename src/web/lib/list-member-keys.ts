import type { AccountId } from './api-client.ts';
import type { MemberList, MembersQuery } from './list-member-pages.ts';
import { rootKeys } from './query-keys.ts';

/**
 * The key of a page of a list's members (lib/list-member-queries.ts reads it; the members page
 * and the contacts page filtered by a list share it). Under the contacts, so that any contact or
 * membership change refreshes it; the page's ids are in it, since paging by ids reads other
 * contacts once the list changed.
 */
export function listMembersKey(accountId: AccountId, list: MemberList, query: MembersQuery) {
  const ids = 'contacts' in list ? list.contacts : [];
  const count = 'contacts' in list ? list.contacts.length : list.memberCount;
  const pageIds = ids.slice((query.page - 1) * query.limit, query.page * query.limit);
  return [
    ...rootKeys.contacts(accountId),
    'members',
    list.name,
    query,
    count,
    pageIds.join(','),
  ] as const;
}
