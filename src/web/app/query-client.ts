import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, RateLimitedError } from '../../api/errors.ts';
import { accountOf } from '../lib/query-keys.ts';
import { clearRateLimits, reportRateLimit } from '../lib/rate-limit.ts';
import { endSession, getSession, subscribeSession } from '../lib/session.ts';

/**
 * The one place that reacts to API errors app-wide: a 429 raises the rate-limit banner of the
 * account it happened on; a 401 while signed in ends the session (the key was revoked, or the
 * token can no longer be used). Components show every other error where it happened.
 */
function onApiError(error: Error, key: QueryKey | undefined) {
  if (error instanceof RateLimitedError) {
    reportRateLimit(accountOf(key), error);
    return;
  }
  const session = getSession();
  if (error instanceof ApiError && error.status === 401 && session.status === 'signed-in') {
    endSession(session.principal.method === 'key' ? 'key-refused' : 'session-expired');
  }
}

/** Client errors (4xx) will not change on retry, and each retry spends the hourly allowance. */
function shouldRetry(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/**
 * Every object the API returns counts against an hourly allowance (spec §8), so the dashboard is
 * frugal: no refetch on focus or reconnect, data stays fresh for five minutes.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onApiError(error, query.queryKey) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) =>
        onApiError(error, mutation.options.mutationKey),
    }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        staleTime: 5 * 60 * 1000,
        retry: shouldRetry,
      },
      mutations: { retry: false },
    },
  });
}

/** The dashboard's one client, shared by the provider and the route loaders that prefetch. */
export const queryClient = createQueryClient();

// Signing out (or in as someone else) leaves nothing of the previous session on screen.
subscribeSession(() => {
  if (getSession().status === 'signed-out') {
    queryClient.clear();
    clearRateLimits();
  }
});
