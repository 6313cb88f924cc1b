import { useQuery } from '@tanstack/react-query';
import type { AccountId } from './api-client.ts';
import { listQueries, type ListSummary } from './list-queries.ts';
import { usePermissions } from './permissions.ts';
import type { Powers } from './powers.ts';

// What a principal confined by spec §2.6's limit_lists and limit_metadata is offered (lib/powers.ts
// reads the limits), apart from powers.ts, which the shell loads before its first paint.

/**
 * Spec §2.6 limit_lists: whether the principal reaches a list. To a limited principal the other
 * lists do not exist (the reference server hides them, SECURITY.md 33): none is offered to it.
 */
export function reachesList(powers: Powers, name: string): boolean {
  return !powers.known || powers.limitLists === null || powers.limitLists.includes(name);
}

/** The lists of `lists` the principal reaches, for every list picker and page. */
export function reachableLists<T extends { name: string }>(
  powers: Powers,
  lists: readonly T[],
): T[] {
  return lists.filter((list) => reachesList(powers, list.name));
}

/**
 * Spec §2.6 limit_metadata: whether the principal may read and write a custom field, named by
 * its identifier or else its full name (the names limit_metadata holds).
 */
export function reachesField(powers: Powers, key: string): boolean {
  return !powers.known || powers.limitMetadata === null || powers.limitMetadata.includes(key);
}

/**
 * The account's lists as every list picker offers them: only those the principal reaches (spec
 * §2.6 limit_lists; the reference server already hides the others, another server may not). The
 * same query as the lists page, so no request of its own. `enabled` as for useQuery.
 */
export function useReachableLists(accountId: AccountId, enabled = true) {
  const powers = usePermissions();
  return useQuery({
    ...listQueries.list(accountId),
    enabled,
    select: (lists: ListSummary[]) => reachableLists(powers, lists),
  });
}
