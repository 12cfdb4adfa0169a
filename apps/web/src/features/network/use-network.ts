import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_NETWORK_MODE,
  isTestNetwork,
  NETWORK_MODE_POLL_MS,
  ZNetworkSchema,
  type THealth,
  type TNetwork,
} from '@solterm/contracts';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

export interface NetworkState {
  network: TNetwork;
  isTestNetwork: boolean;
  isLoading: boolean;
}

/**
 * The chain network the server runs on, from GET /api/health every 30 s (spec part 1 §4). A reply that is not JSON
 * (or not a known network) is skipped: the last known value, or mainnet, stays.
 */
export function useNetwork(): NetworkState {
  const query = useQuery({
    queryKey: queryKeys.health,
    queryFn: async ({ signal }) => {
      const health = await api.get<THealth>('/health', { signal });
      const parsed = ZNetworkSchema.safeParse(health?.network);
      if (!parsed.success) throw new Error('Health reply carries no known network');
      return parsed.data;
    },
    refetchInterval: NETWORK_MODE_POLL_MS,
    // The api client already retried; a failed poll simply waits for the next one.
    retry: false,
    staleTime: NETWORK_MODE_POLL_MS,
  });
  // Until the server has said otherwise the app assumes mainnet (spec part 1 §9).
  const network: TNetwork = query.data ?? DEFAULT_NETWORK_MODE;
  return { network, isTestNetwork: isTestNetwork(network), isLoading: query.isPending };
}
