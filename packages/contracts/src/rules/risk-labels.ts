import { LEVERAGE_RISK_HIGH_MAX, LEVERAGE_RISK_LOW_MAX, LEVERAGE_RISK_MEDIUM_MAX } from './constants';

/** Risk label of a futures leverage. */
export type LeverageRisk = 'Low' | 'Medium' | 'High' | 'Extreme';

/**
 * Labels a leverage (part 2 §9): Low at 5x or below, Medium up to 20x, High up to 50x, Extreme
 * above.
 *
 * @example
 * getLeverageRisk(5);  // 'Low'
 * getLeverageRisk(51); // 'Extreme'
 */
export function getLeverageRisk(leverage: number): LeverageRisk {
  if (leverage <= LEVERAGE_RISK_LOW_MAX) return 'Low';
  if (leverage <= LEVERAGE_RISK_MEDIUM_MAX) return 'Medium';
  if (leverage <= LEVERAGE_RISK_HIGH_MAX) return 'High';
  return 'Extreme';
}

/** Risk level of a marketplace bot. */
export type MarketplaceRisk = 'Low' | 'Medium' | 'High';

/**
 * Risk level of a marketplace bot from its strategy (part 2 §9): Sniper and Scalper strategies
 * are High, Arbitrage and DCA are Low, all others Medium. Matches the strategy name by word,
 * case-insensitively (`rsi_scalper` is a Scalper).
 *
 * @example
 * getMarketplaceRisk('sniper');        // 'High'
 * getMarketplaceRisk('dca');           // 'Low'
 * getMarketplaceRisk('sma_crossover'); // 'Medium'
 */
export function getMarketplaceRisk(strategyType: string): MarketplaceRisk {
  const words = strategyType.toLowerCase().split(/[^a-z0-9]+/);
  if (words.some((word) => word === 'sniper' || word === 'scalper')) return 'High';
  if (words.some((word) => word === 'arbitrage' || word === 'dca')) return 'Low';
  return 'Medium';
}
