import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { Caller } from '../../api/schemas/caller.ts';
import { callExtension } from './extensions.ts';

/** What the dashboard knows of the signed-in caller, from the `caller.get` extension. */
export interface CallerInfo {
  /** The server offers the `caller.get` extension (lib/extensions.ts). */
  supported: boolean;
  /** The address the server checks a `cidr` against; null when it cannot say. */
  address: string | null;
  /** The administrator entry behind the key or token; null when unknown. */
  administrator: NonNullable<Caller['administrator']> | null;
  /** That entry's account; null for the group's global administrators or when unknown. */
  account: Caller['account'] | null;
  /** What a new administrator's welcome email holds (spec §2.6), when the server says. */
  welcome_email?: Caller['welcome_email'];
}

const UNKNOWN = { address: null, administrator: null, account: null } as const;

/**
 * Who is signed in and the address the server sees, from the reference server's `caller.get`
 * extension (src/api/operations.ts); another API v2 server has no such route (spec v2 has no "who
 * am I"), and then the dashboard shows every page and lets the server's 403s explain. No failure
 * is an error here (nor a reason to end the session or raise the rate-limit banner). Without
 * `account_id`: it is the same for every account. Read once per session (the permissions of an
 * entry change rarely; a sign-in again reads them anew).
 */
export const callerQueries = {
  self: () =>
    queryOptions({
      queryKey: [null, 'caller'] as const,
      staleTime: Infinity,
      queryFn: async ({ signal }): Promise<CallerInfo> => {
        try {
          // The API client (and the contract's schemas, about 30 kB gzip) loads with the first
          // page, in parallel with this read: the shell itself stays light.
          const { apiFor } = await import('./api-client.ts');
          const answer = await callExtension(() => apiFor(null).call('caller.get', { signal }));
          if (!answer.supported) return { supported: false, ...UNKNOWN };
          // The answer as read (its welcome_email too), the entry null when it names none.
          const caller = answer.value;
          return {
            ...UNKNOWN,
            ...caller,
            supported: true,
            administrator: caller.administrator ?? null,
          };
        } catch (error) {
          if (error instanceof DOMException && error.name === 'AbortError') throw error;
          return { supported: true, ...UNKNOWN };
        }
      },
    }),
};

/**
 * The caller as the shell's loader read it (routes/shell.tsx ensures it before the first paint),
 * followed through the query cache. Not `useQuery`: its observer would weigh on the app shell's
 * budget (about 8 kB gzip), and this read never fetches by itself.
 */
export function useCallerInfo(): CallerInfo | undefined {
  const client = useQueryClient();
  const { queryKey } = callerQueries.self();
  return useSyncExternalStore(
    (onChange) => client.getQueryCache().subscribe(onChange),
    () => client.getQueryData(queryKey),
  );
}
