import { queryOptions } from '@tanstack/react-query';
import { PAGE_LIMITS } from '../../../../api/constants.ts';

/** One request fills the switcher: the largest page the spec allows (§8). */
const ACCOUNTS_QUERY = { limit: PAGE_LIMITS.accounts.max };

/**
 * Spec §4.7: the accounts of the group, for global principals. Group-wide, so sent without
 * `account_id`: the keys start with null.
 */
export const accountQueries = {
  all: () => [null, 'accounts'] as const,
  list: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'list', ACCOUNTS_QUERY] as const,
      queryFn: async ({ signal }) => {
        // The shell renders before the typed client (zod and the whole contract, ~28 kB gzip) has
        // loaded: only this query needs it, so it is fetched on first use (issue #5 budget).
        const { apiFor } = await import('../../../lib/api-client.ts');
        const accounts = await apiFor(null).call('accounts.list', {
          query: ACCOUNTS_QUERY,
          signal,
        });
        return accounts.toSorted((a, b) => a.name.localeCompare(b.name));
      },
    }),
};
