import type { TChartFill } from '@solterm/contracts';
import { Dec, fromBaseUnits } from '@solterm/engine';
import { isAppError } from '../../../lib/app-error';
import type { MarketService } from '../../market/market.service';
import type { BotRunsRepository } from './bot-runs.repository';

/** Runs of one user looked at for a chart window at most (newest first). */
const MAX_RUNS_READ = 200;

/**
 * A user's bot fills on one pair as chart markers: the runs live in the window whose pair resolves
 * to the same mints (a bot's symbol is what its owner typed: `sol/usdc`, `SOL-USDC` and a mint all
 * name SOL/USDC), their fills' price the quote paid or received (fee included) per token.
 */
export function createBotChartFills(deps: { repo: BotRunsRepository; market: MarketService }) {
  async function mintsOf(symbol: string): Promise<string | null> {
    try {
      const pair = await deps.market.resolvePair(symbol);
      return pair.base.mint && pair.quote.mint ? `${pair.base.mint}/${pair.quote.mint}` : null;
    } catch (error) {
      // A pair that no longer resolves (a delisted token) has no place on any chart.
      if (isAppError(error) && error.status < 500) return null;
      throw error;
    }
  }

  return async function chartFills(
    userId: string,
    pair: { base: { mint: string }; quote: { mint: string } },
    window: { from: Date; to: Date },
    limit: number,
  ): Promise<TChartFill[]> {
    const runs = await deps.repo.runsInWindow(userId, window, MAX_RUNS_READ);
    const wanted = `${pair.base.mint}/${pair.quote.mint}`;
    const symbols = [...new Set(runs.map((run) => run.symbol))];
    const matching = new Set<string>();
    for (const symbol of symbols) if ((await mintsOf(symbol)) === wanted) matching.add(symbol);
    const runsById = new Map(runs.filter((run) => matching.has(run.symbol)).map((run) => [run.id, run]));
    const fills = await deps.repo.fillsInWindow([...runsById.keys()], window, limit);
    return fills.map((fill) => {
      const run = runsById.get(fill.runId)!;
      const base = fromBaseUnits(BigInt(fill.baseAmount), run.baseDecimals);
      const quote = fromBaseUnits(BigInt(fill.quoteAmount), run.quoteDecimals);
      return {
        id: `${fill.runId}:${fill.seq}`,
        source: 'bot' as const,
        label: `Bot "${run.botName}"${run.mode === 'test' ? ' (paper)' : ''}`,
        side: fill.side as TChartFill['side'],
        price: base.isZero() ? '0' : quote.div(base).toSignificantDigits(18, Dec.ROUND_HALF_UP).toFixed(),
        quantity: base.toFixed(),
        time: Math.floor(fill.time.getTime() / 1000),
      };
    });
  };
}

export type BotChartFills = ReturnType<typeof createBotChartFills>;
