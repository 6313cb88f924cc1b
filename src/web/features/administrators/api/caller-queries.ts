import { queryOptions } from '@tanstack/react-query';
import { apiFor } from '../../../lib/api-client.ts';

/**
 * The address the server checks a `cidr` against, from the reference server's `caller.get`
 * extension (src/api/operations.ts). null when the server cannot say: another API v2 server has no
 * such route, a key may lack the permission. Only a warning depends on it, so no failure is an
 * error here (nor a reason to end the session or raise the rate-limit banner). Without
 * `account_id`: the address is the same for every account.
 */
export const callerQueries = {
  address: () =>
    queryOptions({
      queryKey: [null, 'caller', 'address'] as const,
      queryFn: async ({ signal }): Promise<string | null> => {
        try {
          return (await apiFor(null).call('caller.get', { signal })).address;
        } catch (error) {
          if (error instanceof DOMException && error.name === 'AbortError') throw error;
          return null;
        }
      },
    }),
};
