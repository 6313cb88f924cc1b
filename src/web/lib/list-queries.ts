import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import type { List } from '../../api/schemas/list.ts';
import { apiFor, type AccountId } from './api-client.ts';
import { rootKeys } from './query-keys.ts';

/**
 * A list as the pages that show only how many members it has read it: its settings and
 * `memberCount`, not the members' ids. Spec §8 rule 1 charges every returned object, each member
 * id included, so the reference server's `contacts=count` (LIST_QUERY_EXTENSIONS) is asked for
 * where it is offered; elsewhere the ids come (spec §4.4) and are counted here.
 */
export type ListSummary = Pick<List, Exclude<NamedKeys<List>, 'contacts' | 'contacts_count'>> & {
  memberCount: number;
};

/** The named keys of an object type that also has an index signature (a loose zod object). */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

export function summaryOf(list: List): ListSummary {
  const { contacts, contacts_count: count, ...rest } = list;
  return { ...rest, memberCount: count ?? contacts.length };
}

/** Whether a server answers `contacts=count` (per account: one server answers them all). */
const countSupport = new Map<string, boolean>();

/**
 * A read of lists that asks for the member counts where the server offers them: a server without
 * the extension refuses the parameter (400, as EXTENSIONS=off does) or ignores it (its lists then
 * carry their ids, no `contacts_count`); either way it is not asked again.
 */
export async function readSummaries(
  accountId: AccountId,
  read: (counted: boolean) => Promise<List[]>,
): Promise<ListSummary[]> {
  const key = accountId ?? '';
  if (countSupport.get(key) !== false) {
    try {
      const lists = await read(true);
      if (lists.length > 0)
        countSupport.set(
          key,
          lists.every((list) => 'contacts_count' in list),
        );
      return lists.map(summaryOf);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400)) throw error;
      countSupport.set(key, false);
    }
  }
  return (await read(false)).map(summaryOf);
}

const counted = (yes: boolean) => (yes ? { contacts: 'count' as const } : {});

/**
 * The query of a list update: `contacts=count` where the server is known to offer it, as a list
 * update otherwise answers (and is charged) every member id.
 */
export function updateQuery(accountId: AccountId): { contacts?: 'count' } {
  return counted(countSupport.get(accountId ?? '') === true);
}

/**
 * An update's answer as whole list objects are cached: an answer with the count instead of the ids
 * keeps the ids cached before (an update changes no membership); undefined when none were.
 */
export function withMemberIds(updated: List, cached: List | undefined): List | undefined {
  if (updated.contacts_count === undefined) return updated;
  if (!cached) return undefined;
  const { contacts_count: _count, ...rest } = updated;
  return { ...rest, contacts: cached.contacts };
}

/**
 * Spec §4.4. Keys: `[accountId, 'lists', 'list' | 'summary' | 'detail', …]`. `list` and `summary`
 * count the members; `withIds` and `detail` are whole list objects, ids included, for the pages
 * that pass them on as such (list settings, the contacts page filtered by a list).
 */
export const listQueries = {
  all: rootKeys.lists,
  list: (accountId: AccountId) =>
    queryOptions({
      queryKey: [...listQueries.all(accountId), 'list'] as const,
      queryFn: ({ signal }) =>
        readSummaries(accountId, (yes) =>
          apiFor(accountId).call('lists.list', { query: counted(yes), signal }),
        ),
    }),
  withIds: (accountId: AccountId) =>
    queryOptions({
      queryKey: [...listQueries.all(accountId), 'list', 'with-ids'] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('lists.list', { signal }),
    }),
  summary: (accountId: AccountId, name: string) =>
    queryOptions({
      queryKey: [...listQueries.all(accountId), 'summary', name] as const,
      queryFn: async ({ signal }) => {
        const [summary] = await readSummaries(accountId, async (yes) => [
          await apiFor(accountId).call('lists.get', {
            params: { name },
            query: counted(yes),
            signal,
          }),
        ]);
        return summary as ListSummary;
      },
    }),
  detail: (accountId: AccountId, name: string) =>
    queryOptions({
      queryKey: [...listQueries.all(accountId), 'detail', name] as const,
      queryFn: ({ signal }) => apiFor(accountId).call('lists.get', { params: { name }, signal }),
    }),
};

/** For tests: forget what servers were found to do. */
export function forgetCountSupport(): void {
  countSupport.clear();
}
