import { FUTURES_MARKET_SUFFIX } from '@solterm/contracts';
import type { PerpMarketSpec } from '@solterm/engine';

/** A perpetual market of the local venue: its rules and the token its oracle prices. */
export interface PerpMarket extends PerpMarketSpec {
  /** The token whose market-data price is the oracle (`SOL`). */
  readonly baseSymbol: string;
  /** Position in the market list (Drift's market index where Drift lists it). */
  readonly index: number;
}

const usdc = (text: string) => BigInt(Math.round(Number(text) * 1_000_000));

function market(
  index: number,
  baseSymbol: string,
  tick: string,
  maxLeverage: number,
  sizeDecimals = 3,
): PerpMarket {
  return {
    symbol: `${baseSymbol}${FUTURES_MARKET_SUFFIX}`,
    baseSymbol,
    index,
    sizeDecimals,
    tick: usdc(tick),
    // The spec's default minimum order, 0.001 of the base token.
    minSize: 10n ** BigInt(sizeDecimals) / 1000n,
    maxLeverage,
  };
}

/**
 * The local venue's markets. The majors allow 100x (the spec's maximum); the rest 20x, as venues
 * tier thinner markets. Ticks are about 1 to 5 basis points of the price.
 */
export const PERP_MARKETS: readonly PerpMarket[] = [
  market(0, 'SOL', '0.01', 100),
  market(1, 'BTC', '1', 100, 4),
  market(2, 'ETH', '0.1', 100),
  market(3, 'JUP', '0.0001', 20),
  market(4, 'WIF', '0.0001', 20),
  market(5, 'JTO', '0.001', 20),
  market(6, 'PYTH', '0.00001', 20),
  market(7, 'RENDER', '0.001', 20),
  market(8, 'HNT', '0.001', 20),
];

/**
 * The market a symbol names: `SOL-PERP`, `SOL`, `sol-perp` or a pair `SOL/USDC` (the base counts,
 * as the spec's "a market counts as supported if the base symbol is in the perpetual market list").
 */
export function findPerpMarket(text: string): PerpMarket | undefined {
  const upper = text.trim().toUpperCase();
  const base = upper.endsWith(FUTURES_MARKET_SUFFIX)
    ? upper.slice(0, -FUTURES_MARKET_SUFFIX.length)
    : (upper.split('/')[0] ?? upper);
  return PERP_MARKETS.find((m) => m.baseSymbol.toUpperCase() === base);
}
