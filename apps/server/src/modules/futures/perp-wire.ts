import { Dec } from '@solterm/engine';
import type { PerpMarket } from './perp-markets';

/** Decimal places of a tick in USDC base units (10_000 → 2). */
function tickDecimals(tick: bigint): number {
  let decimals = 6;
  let rest = tick;
  while (decimals > 0 && rest % 10n === 0n) {
    rest /= 10n;
    decimals--;
  }
  return decimals;
}

/** Base units to the futures API's decimal strings (exact: decimal.js from bigint text). */
export function createPerpWire() {
  return {
    /** USDC base units as USDC with 6 places. */
    usdc: (units: bigint) => new Dec(units.toString()).div(1_000_000).toFixed(6),
    priceDecimals: (market: PerpMarket) => tickDecimals(market.tick),
    price: (units: bigint, market: PerpMarket) =>
      new Dec(units.toString()).div(1_000_000).toFixed(tickDecimals(market.tick)),
    size: (lots: bigint, market: PerpMarket) =>
      new Dec(lots.toString()).div(new Dec(10).pow(market.sizeDecimals)).toFixed(market.sizeDecimals),
    /** A decimal price to base units on the market's tick, rounded `down` or `up`. */
    priceToTick(price: Dec, market: PerpMarket, direction: 'down' | 'up'): bigint {
      const ticks = price
        .times(1_000_000)
        .div(market.tick.toString())
        .toDecimalPlaces(0, direction === 'down' ? Dec.ROUND_DOWN : Dec.ROUND_UP);
      return BigInt(ticks.toFixed()) * market.tick;
    },
  };
}

export type PerpWire = ReturnType<typeof createPerpWire>;
