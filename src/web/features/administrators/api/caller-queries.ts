import { queryOptions } from '@tanstack/react-query';
import { apiFor } from '../../../lib/api-client.ts';
import { callExtension } from '../../../lib/extensions.ts';

/** What the dashboard knows of the address the server checks a `cidr` against. */
export interface CallerAddress {
  /** The server offers the `caller.get` extension (lib/extensions.ts). */
  supported: boolean;
  /** null when the server cannot say: no such route, or the key may lack the permission. */
  address: string | null;
}

/**
 * The address the server checks a `cidr` against, from the reference server's `caller.get`
 * extension (src/api/operations.ts); another API v2 server has no such route. Only a warning
 * depends on it, so no failure is an error here (nor a reason to end the session or raise the
 * rate-limit banner). Without `account_id`: the address is the same for every account.
 */
export const callerQueries = {
  address: () =>
    queryOptions({
      queryKey: [null, 'caller', 'address'] as const,
      queryFn: async ({ signal }): Promise<CallerAddress> => {
        try {
          const answer = await callExtension(() => apiFor(null).call('caller.get', { signal }));
          return answer.supported
            ? { supported: true, address: answer.value.address }
            : { supported: false, address: null };
        } catch (error) {
          if (error instanceof DOMException && error.name === 'AbortError') throw error;
          return { supported: true, address: null };
        }
      },
    }),
};
