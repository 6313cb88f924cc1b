import { QueryClient } from '@tanstack/react-query';

/**
 * Every object the API returns counts against an hourly allowance (spec §8), so the dashboard is
 * frugal: no refetch on focus, data stays fresh for five minutes.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        staleTime: 5 * 60 * 1000,
      },
    },
  });
}

/** The dashboard's one client, shared by providers and (later) route loaders that prefetch. */
export const queryClient = createQueryClient();
