import type { TChartFill } from '@solterm/contracts';
import { isAppError } from '../../lib/app-error';
import { defineModule } from '../../lib/server-module';
import type { MarketService } from '../market/market.service';
import type { TradingService } from '../trading/trading.service';
import { registerFillsRoutes } from './fills.routes';
import { createFillsService, isPerpChartPair, type ChartFillSource } from './fills.service';

interface FillsDeps {
  market: MarketService;
  trading: TradingService;
  /** The bots module's reader of a user's bot fills on a pair. */
  botFills: ChartFillSource;
  /** The local perp venue's reader of a user's fills in a market (absent on read-only Drift). */
  perpFills?: (
    userId: string,
    symbol: string,
    window: { from: Date; to: Date },
    limit: number,
  ) => Promise<TChartFill[]>;
}

/**
 * The user's own fills for chart markers: spot fills (trading), bot fills (bots) and futures fills
 * (futures) on one pair, read through each module's service. It sits above them all.
 */
export function createFillsModule(deps: FillsDeps) {
  const { market, trading, perpFills } = deps;
  async function canonicalMintOf(symbol: string): Promise<string | null> {
    try {
      return (await market.resolveToken(symbol)).mint ?? null;
    } catch (error) {
      if (isAppError(error) && error.status < 500) return null;
      throw error;
    }
  }
  const futuresSource: ChartFillSource = async (userId, pair, window, limit) =>
    perpFills && (await isPerpChartPair(pair, canonicalMintOf))
      ? perpFills(userId, pair.base.symbol, window, limit)
      : [];
  const fills = createFillsService({
    resolvePair: (text) => trading.resolvePair(text),
    sources: [(...args) => trading.chartFills(...args), deps.botFills, futuresSource],
  });
  return defineModule({
    service: fills,
    routes(server, { requireAuth }) {
      registerFillsRoutes(server, { fills, requireAuth });
    },
  });
}
