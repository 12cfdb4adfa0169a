import { MAX_CHART_FILLS, USDC_MINT, type TChartFill, type TChartFills } from '@solterm/contracts';
import type { TradingPair } from '../trading/trading.service';

/** One kind of fill (spot, bot, futures): the user's fills on the pair in the window, newest first. */
export type ChartFillSource = (
  userId: string,
  pair: TradingPair,
  window: { from: Date; to: Date },
  limit: number,
) => Promise<TChartFill[]>;

export interface FillsServiceDeps {
  /** The chart's pair as the venue trades it (mints), or a 4xx AppError. */
  resolvePair(text: string): Promise<TradingPair>;
  sources: readonly ChartFillSource[];
}

/**
 * GET /trading/fills: the caller's own fills on a pair over a chart's window, from every source,
 * merged newest first and capped at {@link MAX_CHART_FILLS} (`truncated` says older ones were left).
 */
export function createFillsService(deps: FillsServiceDeps) {
  return {
    async chartFills(
      userId: string,
      query: { pair: string; from: number; to: number },
    ): Promise<TChartFills> {
      const pair = await deps.resolvePair(query.pair);
      const window = { from: new Date(query.from * 1000), to: new Date(query.to * 1000 + 999) };
      // One more than the cap from each source tells whether the window held more.
      const lists = await Promise.all(
        deps.sources.map((source) => source(userId, pair, window, MAX_CHART_FILLS + 1)),
      );
      const merged = lists.flat().sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      return {
        pair: pair.text,
        from: query.from,
        to: query.to,
        fills: merged.slice(0, MAX_CHART_FILLS),
        truncated: merged.length > MAX_CHART_FILLS,
      };
    },
  };
}

export type FillsService = ReturnType<typeof createFillsService>;

/**
 * Futures fills belong on a chart of the perp's base token quoted in USDC (the perps' quote, which
 * the oracle prices): whether `pair` is such a chart. A look-alike token that shares the symbol but
 * not the mint the market data names for it is not the perp's token.
 */
export async function isPerpChartPair(
  pair: TradingPair,
  canonicalMintOf: (symbol: string) => Promise<string | null>,
): Promise<boolean> {
  if (pair.quote.mint !== USDC_MINT) return false;
  return (await canonicalMintOf(pair.base.symbol)) === pair.base.mint;
}
