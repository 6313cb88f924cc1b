import { queryOptions } from '@tanstack/react-query';
import { PAGE_LIMITS } from '../../../../api/constants.ts';
import { apiFor } from '../../../lib/api-client.ts';

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
        const accounts = await apiFor(null).call('accounts.list', {
          query: ACCOUNTS_QUERY,
          signal,
        });
        return accounts.toSorted((a, b) => a.name.localeCompare(b.name));
      },
    }),
};
