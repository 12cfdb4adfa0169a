import { listed, type UniverseToken } from './universe-token';

/**
 * Market facts of the risk demonstration tokens (@solterm/contracts RISK_DEMO_TOKENS): small, quiet
 * markets (they stay out of Trending's top) that are searched and charted like the others, so each
 * token-safety flag can be seen offline. Supplies match their genesis mints (1 million tokens; the
 * whale's 2.5 million).
 */
const quietToken = {
  basePrice: '0.05',
  circulatingSupply: '1000000',
  totalSupply: '1000000',
  annualVolatility: 0.9,
  marketBeta: 0.3,
  dailyVolumeUsd: 2_000,
  liquidityUsd: 20_000,
  dex: 'raydium',
  launchedAt: '2025-06-01',
  coingeckoId: null,
  aliases: [],
} as const;

export const RISK_DEMO_MARKET_TOKENS: readonly UniverseToken[] = [
  listed({ ...quietToken, symbol: 'FROST' }),
  listed({ ...quietToken, symbol: 'TOLL', basePrice: '0.12' }),
  listed({ ...quietToken, symbol: 'PUPPET', basePrice: '0.03' }),
  listed({
    ...quietToken,
    symbol: 'WHALE',
    basePrice: '0.02',
    circulatingSupply: '2500000',
    totalSupply: '2500000',
  }),
];
