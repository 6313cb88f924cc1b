import { queryOptions } from '@tanstack/react-query';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { rootKeys } from '../../../lib/query-keys.ts';

/**
 * The posting tester's one look-up of a sender (spec §4.1 `email`: the contact holding that
 * address, with its memberships): at most one contact read against the hourly allowance (§8),
 * where reading the list's members would cost one per member. Under the contacts key, so that
 * editing contacts refreshes it.
 */
export const senderLookupQuery = (accountId: AccountId, address: string) =>
  queryOptions({
    queryKey: [...rootKeys.contacts(accountId), 'by-email', address] as const,
    queryFn: async ({ signal }) => {
      const page = await apiFor(accountId).call('contacts.list', {
        query: { email: address, limit: 1 },
        signal,
      });
      return page.data[0] ?? null;
    },
    // A look-up the person asked for: a refused one (403, 429) is answered at once, not retried.
    retry: false,
    staleTime: 60_000,
  });
