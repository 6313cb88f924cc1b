import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './query-client.ts';

/**
 * The data layer of the signed-in pages (the only ones that query the API through TanStack Query).
 * The shell mounts it, not the entry: the sign-in page loads without Query (issue #5 budget).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
