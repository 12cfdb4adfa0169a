import { readOrCreateSecret } from '../../lib/data-dir-secret';
import { defineModule, type ModuleContext } from '../../lib/server-module';
import type { RealtimeHub } from '../realtime/realtime.service';
import type { MarketData } from './market-data';
import { createMarketData } from './market-data.factory';
import { registerDevMarketRoutes } from './dev-market.routes';
import { registerMarketRoutes } from './market.routes';
import { createMarketService } from './market.service';
import { createMarketStream, type MarketStream } from './market.stream';
import { createTokenFactsLookup } from './simulator/simulated-tokens';

/**
 * Tokens, pairs, quotes and candles (simulator or live) and the ticks pushed to /ws subscribers.
 * `simulation` is what the holders module's simulated distribution draws from: the market's seed, the
 * universe's token facts and current prices.
 */
export async function createMarketModule({ config, log, now }: ModuleContext, deps: { hub: RealtimeHub }) {
  // The simulator's seed decides every future price: a public default would let anyone compute the
  // market ahead of time, so without MARKET_SEED each data directory gets its own, generated once.
  const seed =
    config.market.seed ?? (await readOrCreateSecret(config.dataDir, 'market-seed', 16)).toString('hex');
  const data: MarketData = createMarketData({ ...config.market, seed }, { now, log });
  const market = createMarketService({ data, now, log });
  const stream: MarketStream = createMarketStream({
    hub: deps.hub,
    market,
    tickMs: config.market.tickMs,
    now,
    log,
  });
  return defineModule({
    service: market,
    data,
    stream,
    simulation: {
      seed,
      facts: createTokenFactsLookup(),
      async priceOf(mint: string) {
        const token = await market.findToken(mint);
        return token ? (await data.getQuote(token))?.price : undefined;
      },
    },
    // Each API process pushes market ticks to its own sockets.
    jobs: { perApiProcess: [stream.job()] },
    routes(server, http) {
      registerMarketRoutes(server, { market, now, hot: http.hot });
      // The dev price hook exists only for the simulator: live prices are not ours to move.
      if (config.devMarket && data.shiftPrice) {
        registerDevMarketRoutes(server, { market, data: { shiftPrice: data.shiftPrice.bind(data) } });
      }
    },
    close: () => data.stop(),
  });
}
