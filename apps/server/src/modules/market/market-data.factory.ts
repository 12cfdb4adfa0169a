import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config/env';
import { createLiveMarket } from './live/live-market';
import type { MarketData } from './market-data';
import { createSimulatedMarket } from './simulator/simulated-market';

/** Chooses the MarketData implementation from MARKET_DATA. */
export function createMarketData(
  /** The market settings, with the seed resolved (MARKET_SEED, or the one kept in DATA_DIR). */
  config: AppConfig['market'] & { seed: string },
  deps: { now: () => Date; log: FastifyBaseLogger; fetch?: typeof fetch },
): MarketData {
  if (config.data === 'live') {
    return createLiveMarket({
      coingeckoUrl: config.coingeckoUrl,
      coingeckoApiKey: config.coingeckoApiKey,
      dexscreenerUrl: config.dexscreenerUrl,
      jupiterPriceUrl: config.jupiterPriceUrl,
      jupiterTokensUrl: config.jupiterTokensUrl,
      jupiterApiKey: config.jupiterApiKey,
      timeoutMs: config.providerTimeoutMs,
      now: deps.now,
      log: deps.log,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  }
  return createSimulatedMarket({
    seed: config.seed,
    now: deps.now,
    log: deps.log,
  });
}
