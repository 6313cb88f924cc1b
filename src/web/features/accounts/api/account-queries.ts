import { queryOptions } from '@tanstack/react-query';
import { PAGE_LIMITS } from '../../../../api/constants.ts';
import type { Id } from '../../../../api/primitives.ts';
import { rootKeys } from '../../../lib/query-keys.ts';

/** Spec §4.7 filters: only accounts holding that list, that username, that key description. */
export interface AccountFilters {
  listname?: string;
  username?: string;
  description?: string;
}

// The shell renders before the typed client (zod and the whole contract, ~28 kB gzip) has
// loaded: these queries fetch it on first use (issue #5 budget).
const api = async () => (await import('../../../lib/api-client.ts')).apiFor(null);

/**
 * Spec §4.7: the accounts of the group, for global principals. Group-wide, so sent without
 * `account_id`: the keys start with null. One request fills the switcher and the table: the
 * largest page the spec allows (§8); without filters both share one cache entry.
 */
export const accountQueries = {
  all: rootKeys.accounts,
  list: (filters: AccountFilters = {}) => {
    const query = { limit: PAGE_LIMITS.accounts.max, ...withoutBlanks(filters) };
    return queryOptions({
      queryKey: [...accountQueries.all(), 'list', query] as const,
      queryFn: async ({ signal }) => {
        const accounts = await (await api()).call('accounts.list', { query, signal });
        return accounts.toSorted((a, b) => a.name.localeCompare(b.name));
      },
    });
  },
  /** Every §2.7 field of one account. */
  detail: (id: Id) =>
    queryOptions({
      queryKey: rootKeys.account(id),
      queryFn: async ({ signal }) => (await api()).call('accounts.get', { params: { id }, signal }),
    }),
};

function withoutBlanks(filters: AccountFilters): AccountFilters {
  const kept: AccountFilters = {};
  for (const key of ['listname', 'username', 'description'] as const) {
    const value = filters[key]?.trim();
    if (value) kept[key] = value;
  }
  return kept;
}
