import { useQuery } from '@tanstack/react-query';
import type { TPairTradability } from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { tradingApi } from './trading-api';

/** Tradability changes only when the venue or chain does: read once a minute at most. */
const TRADABILITY_STALE_MS = 60_000;

/**
 * Whether each pair can be traded on the configured venue and chain (GET /trading/tradable), keyed
 * by the pair text as given; a pair is absent while unknown.
 */
export function useTradability(pairs: readonly string[]) {
  const unique = [...new Set(pairs)].sort();
  const query = useQuery({
    queryKey: queryKeys.trading.tradable(unique),
    queryFn: ({ signal }) => tradingApi.getTradable(unique, signal),
    enabled: unique.length > 0,
    staleTime: TRADABILITY_STALE_MS,
  });
  const byPair = new Map<string, TPairTradability>();
  for (const entry of query.data?.pairs ?? []) byPair.set(entry.pair, entry);
  return { byPair, isError: query.isError };
}

/**
 * One pair's tradability for the trade page. `canPoll` lets its pair-specific reads (order book,
 * balances) start only once the pair is known to be tradable — or when tradability cannot be read,
 * so a failing check never hides a working pair. `isTradable` is false only for a pair the server
 * said cannot be traded, with its `reason`.
 */
export function usePairTradability(pairId: string) {
  const { byPair, isError } = useTradability([pairId]);
  const entry = byPair.get(pairId);
  return {
    isTradable: entry?.tradable,
    reason: entry?.reason ?? null,
    canPoll: entry?.tradable === true || isError,
  };
}
