import type { Dec } from '../money/decimal';
import type { RestingOrder } from './order-book';
import { ceilDiv, crossLiquidationPrice, initialMargin, maintenanceMargin, notionalOf } from './perp-math';
import {
  abs,
  bigOf,
  PERP_DEFAULT_LEVERAGE,
  PerpError,
  pow10,
  type MarketState,
  type PerpAccount,
} from './perp-state';

// Margin and leverage: what an account is worth at the oracle, what its positions and orders need,
// and how far a fill moves it. Reads only; the commands decide what to refuse with them.

type Markets = ReadonlyMap<string, MarketState>;

/** Σ over the account of collateral + quote + size × oracle: what it is worth now. */
export function equityOf(markets: Markets, account: PerpAccount): bigint {
  let equity = account.collateral;
  for (const [symbol, position] of account.positions) {
    const market = markets.get(symbol)!;
    equity += position.quote + (position.size * market.oracle) / market.scale;
  }
  return equity;
}

export function maintenanceOf(markets: Markets, account: PerpAccount): bigint {
  let total = 0n;
  for (const [symbol, position] of account.positions) {
    const { spec, oracle } = markets.get(symbol)!;
    total += maintenanceMargin(notionalOf(position.size, oracle, spec.sizeDecimals), spec.maxLeverage);
  }
  return total;
}

/** The account's leverage setting in a market (the default until it sets one). */
export function leverageOf(markets: Markets, account: PerpAccount, symbol: string): number {
  const set = account.leverage.get(symbol);
  if (set !== undefined) return set;
  const max = markets.get(symbol)?.spec.maxLeverage ?? PERP_DEFAULT_LEVERAGE;
  return max < PERP_DEFAULT_LEVERAGE ? max : PERP_DEFAULT_LEVERAGE;
}

/** Whether the account holds a position or open orders in the market (its leverage is then in use). */
export function hasExposureIn(markets: Markets, account: PerpAccount, symbol: string): boolean {
  if (account.positions.has(symbol)) return true;
  const book = markets.get(symbol)?.book;
  for (const id of account.orders) if (book?.has(id)) return true;
  return false;
}

/** Initial margin of the positions (at the oracle) and of the open orders that add exposure. */
export function initialRequirementOf(
  markets: Markets,
  account: PerpAccount,
  leverageOverride?: { market: string; leverage: number },
): bigint {
  return initialRequirementAt(markets, account, leverageOverride?.market, leverageOverride?.leverage ?? 0);
}

/** {@link initialRequirementOf} with `symbol`'s leverage taken as `leverage` (no object per order). */
export function initialRequirementAt(
  markets: Markets,
  account: PerpAccount,
  symbol: string | undefined,
  leverage: number,
): bigint {
  let total = 0n;
  for (const [held, position] of account.positions) {
    const { spec, oracle } = markets.get(held)!;
    const setting = held === symbol ? leverage : leverageOf(markets, account, held);
    total += initialMargin(notionalOf(position.size, oracle, spec.sizeDecimals), setting);
  }
  return total + account.orderMargin;
}

/** What the account may withdraw: settled collateral, less what the margin of its positions and orders needs. */
export function freeCollateralOf(markets: Markets, account: PerpAccount): bigint {
  const free = equityOf(markets, account) - initialRequirementOf(markets, account);
  const settled = account.collateral < free ? account.collateral : free;
  return settled > 0n ? settled : 0n;
}

export function isLiquidatable(markets: Markets, account: PerpAccount): boolean {
  return account.positions.size > 0 && equityOf(markets, account) < maintenanceOf(markets, account);
}

export function liquidationPriceOf(markets: Markets, account: PerpAccount, symbol: string): Dec | null {
  const position = account.positions.get(symbol);
  if (!position) return null;
  const { spec, oracle } = markets.get(symbol)!;
  const markValue = (position.size * oracle) / pow10(spec.sizeDecimals);
  return crossLiquidationPrice({
    size: position.size,
    sizeDecimals: spec.sizeDecimals,
    maxLeverage: spec.maxLeverage,
    equityExcludingMark: equityOf(markets, account) - markValue,
    otherMaintenance:
      maintenanceOf(markets, account) -
      maintenanceMargin(notionalOf(position.size, oracle, spec.sizeDecimals), spec.maxLeverage),
  });
}

/** Initial margin an open order holds (none for reduce-only orders). */
export function orderMarginOf(markets: Markets, order: RestingOrder): bigint {
  if (order.reduceOnly) return 0n;
  const { spec } = markets.get(order.market)!;
  return initialMargin(notionalOf(order.remaining, order.price, spec.sizeDecimals), order.leverage);
}

/** Equity less maintenance margin, marked to the oracle: negative when the account is liquidatable. */
export function healthOf(markets: Markets, account: PerpAccount): bigint {
  let health = account.collateral;
  for (const [symbol, position] of account.positions) {
    const market = markets.get(symbol)!;
    health +=
      position.quote + (position.size * market.oracle) / market.scale - maintenanceAt(market, position.size);
  }
  return health;
}

/**
 * What one side of a fill (`lots` signed, for `notional`, paying `fee`) changes the account's
 * {@link healthOf} by: exactly, the same arithmetic as settling it (perp-settlement's `applyFill`).
 */
export function healthChange(
  market: MarketState,
  account: PerpAccount,
  lots: bigint,
  notional: bigint,
  fee: bigint,
): bigint {
  const held = account.positions.get(market.spec.symbol)?.size ?? 0n;
  return (
    equityChange(market, account, lots, notional, fee) -
    maintenanceAt(market, held + lots) +
    maintenanceAt(market, held)
  );
}

/** The same for {@link equityOf}. */
export function equityChange(
  market: MarketState,
  account: PerpAccount,
  lots: bigint,
  notional: bigint,
  fee: bigint,
): bigint {
  const { oracle, scale } = market;
  const held = account.positions.get(market.spec.symbol)?.size ?? 0n;
  return (
    (lots > 0n ? -notional : notional) - fee + ((held + lots) * oracle) / scale - (held * oracle) / scale
  );
}

/** {@link maintenanceMargin} of `lots` at the oracle, without recomputing the market's scale. */
function maintenanceAt(market: MarketState, lots: bigint): bigint {
  return ceilDiv((abs(lots) * market.oracle) / market.scale, bigOf(2 * market.spec.maxLeverage));
}

export function checkLeverage(leverage: number, max: number): void {
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > max) {
    throw new PerpError('LEVERAGE_INVALID', `Leverage must be a whole number from 1 to ${max}`);
  }
}
