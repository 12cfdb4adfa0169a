import { QueryClient } from '@tanstack/react-query';

/**
 * The app's query cache. The api client already retries network errors and 5xx (3 attempts), so
 * React Query does not retry on top of it.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}
