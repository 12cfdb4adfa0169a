import type { BookOrder } from './order-book';
import { leverageOf } from './perp-margin';
import type { Account, MarketState, Position } from './perp-state';
import { add, ceilQuot, mul, notionalUnits, quot, sub } from './perp-units';

// perp-margin.ts's hot reads in exact numbers (perp-units.ts): the same arithmetic, step for step,
// answering NaN when a value leaves the safe range — the caller then asks perp-margin.ts.

type Markets = ReadonlyMap<string, MarketState>;

/** size × oracle / scale, truncated as bigint division: a position's mark value. */
function markUnits(market: MarketState, size: number): number {
  return quot(mul(size, market.oracleUnits), market.scaleUnits);
}

/**
 * {@link equityOf} less {@link initialRequirementAt}, in numbers and one pass over the positions:
 * what is left for a new order's margin (a position's notional at the oracle is |its mark value|).
 */
export function freeMarginUnits(
  markets: Markets,
  account: Account,
  market: MarketState,
  leverage: number,
): number {
  let free = sub(account.units, account.held);
  const { positions } = account;
  // The market's own position first, from its slot; any other by name (the sum's order changes
  // no exact result, and a NaN is NaN in any order).
  const own = positions.slots[market.index];
  if (own !== undefined) free = add(free, positionFreeUnits(market, own, leverage));
  if (positions.size > (own === undefined ? 0 : 1)) {
    for (const [held, position] of positions) {
      if (position === own) continue;
      const other = markets.get(held)!;
      free = add(free, positionFreeUnits(other, position, leverageOf(markets, account, held)));
    }
  }
  return free;
}

/** A position's quote + mark value − initial margin at `leverage`. */
function positionFreeUnits(market: MarketState, position: Position, leverage: number): number {
  const mark = markUnits(market, position.lots);
  const margin = ceilQuot(mark < 0 ? -mark : mark, leverage);
  return sub(add(position.cash, mark), margin);
}

/** {@link healthOf} in numbers (`market`: where the account most likely holds its one position). */
export function healthUnits(markets: Markets, account: Account, market: MarketState): number {
  const health = account.units;
  const { positions } = account;
  if (positions.size === 0) return health;
  const own = positions.slots[market.index];
  if (positions.size === 1 && own !== undefined) return add(health, positionHealthUnits(market, own));
  let total = health;
  for (const [symbol, position] of positions)
    total = add(total, positionHealthUnits(markets.get(symbol)!, position));
  return total;
}

/** A position's quote + mark value − maintenance margin. */
function positionHealthUnits(market: MarketState, position: Position): number {
  return add(position.cash, markLessMaintenanceUnits(market, position.lots));
}

/**
 * A position's mark value less its maintenance margin, with one division for both: the margin's
 * notional ⌊|lots| × oracle / scale⌋ is |⌊lots × oracle / scale⌋| (truncation toward zero is
 * symmetric), so perp-margin's `maintenanceAt` ⌈⌊|lots| × oracle / scale⌋ / (2 × max leverage)⌉ is
 * ⌈|mark| / (2 × max leverage)⌉.
 */
function markLessMaintenanceUnits(market: MarketState, size: number): number {
  const mark = markUnits(market, size);
  return sub(mark, ceilQuot(mark < 0 ? -mark : mark, 2 * market.spec.maxLeverage));
}

/** {@link orderMarginOf} in numbers. */
export function orderMarginUnits(market: MarketState, order: BookOrder): number {
  if (order.reduceOnly) return 0;
  return ceilQuot(notionalUnits(order.rem, order.px, market.scaleUnits), order.leverage);
}

/**
 * Whether a fill (`lots` signed, for `notional`, paying `fee`) lowers the account's health below
 * zero or lowers it further below: perp-margin's `healthChange` < 0 and health + change < 0. The
 * held position's mark less maintenance serves both (the change is cash − fee + that term after
 * the fill − the term now). Undefined when a value leaves the safe range: the caller asks bigint.
 */
export function breaksMaintenanceUnits(
  markets: Markets,
  account: Account,
  market: MarketState,
  lots: number,
  notional: number,
  fee: number,
): boolean | undefined {
  // Health + change is the health after the fill: when a floor of it is ≥ 0, nothing breaks.
  if (healthAfterFloorHolds(account, market, lots, notional, fee)) return false;
  if (healthAfterFloorUnits(account, market, lots, notional, fee) >= 0) return false;
  const position = account.positions.slots[market.index];
  const held = position === undefined ? 0 : position.lots;
  const heldTerm = markLessMaintenanceUnits(market, held);
  const cash = lots > 0 ? -notional : notional;
  const change = add(sub(cash, fee), sub(markLessMaintenanceUnits(market, add(held, lots)), heldTerm));
  if (change !== change) return undefined;
  if (change >= 0) return false;
  // healthUnits, from the term above when the account holds no other position.
  const health =
    account.positions.size !== (position === undefined ? 0 : 1)
      ? healthUnits(markets, account, market)
      : position === undefined
        ? account.units
        : add(account.units, add(position.cash, heldTerm));
  // Rounding is monotone and 0 is exact: the sum's sign is right even if it rounds.
  return health === health ? health + change < 0 : undefined;
}

/**
 * A position's term in health or free margin — mark value less a margin of at most the mark
 * value (ceiled) — is at least −2·|lots|·⌈oracle/scale⌉ − 1: |mark| ≤ |lots|·oracle/scale, and
 * ⌈|mark| / k⌉ ≤ |mark| + 1 for k ≥ 1 (k is a leverage, or twice the maximum one). Multiplications
 * only: the bounds below spare the hot path the divisions of the exact sums when an account is
 * far from its limits (most are). NaN when a value leaves the safe range.
 */
function positionTermFloor(market: MarketState, lots: number): number {
  return sub(-1, mul(2, mul(lots < 0 ? -lots : lots, market.lotValueCeil)));
}

/**
 * A floor of the account's health after a fill (`lots` signed, for `notional`, paying `fee`) —
 * perp-margin's `healthOf` + `healthChange` — when its only position is in `market` (else NaN).
 */
export function healthAfterFloorUnits(
  account: Account,
  market: MarketState,
  lots: number,
  notional: number,
  fee: number,
): number {
  const position = account.positions.slots[market.index];
  if (account.positions.size !== (position === undefined ? 0 : 1)) return NaN;
  const held = position === undefined ? 0 : position.lots;
  const cash = add(position === undefined ? 0 : position.cash, lots > 0 ? -notional : notional);
  return add(sub(account.units, fee), add(cash, positionTermFloor(market, add(held, lots))));
}

/**
 * A floor of {@link freeMarginUnits} at any leverage (equity less the initial requirement of the
 * positions and open orders) when the account's only position is in `market` (else NaN).
 */
export function freeMarginFloorUnits(account: Account, market: MarketState): number {
  const position = account.positions.slots[market.index];
  if (account.positions.size !== (position === undefined ? 0 : 1)) return NaN;
  const free = sub(account.units, account.held);
  if (position === undefined) return free;
  return add(free, add(position.cash, positionTermFloor(market, position.lots)));
}

/*
 * The floors above as yes/no answers for the hot path, in one body with no calls: a funded
 * account's floor is far past 2^31, and such a number crossing a call V8 did not inline is a heap
 * number (an allocation per order or fill; the helpers above are such calls once the caller's
 * inlining budget is spent). Each answers true only when every input is within the bounds below:
 * |collateral| ≤ 2^51; |order margin|, |quote|, |lots|, notional and fee ≤ 2^49; and the term
 * |lots after| × ⌈oracle/scale⌉ ≤ 2^49 (a product of whole numbers is exact below 2^53, and past
 * it rounds to ≥ 2^53, so it passes the bound only when exact). Every sum then stays below
 * 2^51 + 5·2^49 + 1 < 2^53 in magnitude, each step is exact, and the floor computed — the same
 * terms in the same order — is the very number healthAfterFloorUnits / freeMarginFloorUnits
 * answer. Out of bounds (or NaN, which fails every comparison) the answer is false and the caller
 * asks those functions: a true here is only given where their floor passes, so the fast check
 * accepts nothing the exact one refuses (perp-margin-units.test.ts tries both, at the edge too).
 */
const COLLATERAL_BOUND = 2 ** 51;
const TERM_BOUND = 2 ** 49;

/**
 * Whether {@link healthAfterFloorUnits} is ≥ 0 with every value within the bounds above (false
 * otherwise: the caller then asks healthAfterFloorUnits).
 */
export function healthAfterFloorHolds(
  account: Account,
  market: MarketState,
  lots: number,
  notional: number,
  fee: number,
): boolean {
  const position = account.positions.slots[market.index];
  if (account.positions.size !== (position === undefined ? 0 : 1)) return false;
  const units = account.units;
  const held = position === undefined ? 0 : position.lots;
  const quote = position === undefined ? 0 : position.cash;
  if (!(units <= COLLATERAL_BOUND && units >= -COLLATERAL_BOUND)) return false;
  if (!(quote <= TERM_BOUND && quote >= -TERM_BOUND && held <= TERM_BOUND && held >= -TERM_BOUND))
    return false;
  if (!(lots <= TERM_BOUND && lots >= -TERM_BOUND && notional <= TERM_BOUND && fee <= TERM_BOUND))
    return false;
  if (!(notional >= 0 && fee >= 0)) return false;
  const after = held + lots;
  const term = (after < 0 ? -after : after) * market.lotValueCeil;
  if (!(term <= TERM_BOUND)) return false;
  return units - fee + (quote + (lots > 0 ? -notional : notional)) + (-1 - 2 * term) >= 0;
}

/**
 * Whether `needs` is at most {@link freeMarginFloorUnits} with every value within the bounds above
 * (false otherwise, or when `needs` is NaN: the caller then asks the exact check).
 */
export function freeMarginFloorCovers(account: Account, market: MarketState, needs: number): boolean {
  const position = account.positions.slots[market.index];
  if (account.positions.size !== (position === undefined ? 0 : 1)) return false;
  const units = account.units;
  const margin = account.held;
  if (!(units <= COLLATERAL_BOUND && units >= -COLLATERAL_BOUND)) return false;
  if (!(margin <= TERM_BOUND && margin >= -TERM_BOUND)) return false;
  if (position === undefined) return needs <= units - margin;
  const lots = position.lots;
  const quote = position.cash;
  if (!(quote <= TERM_BOUND && quote >= -TERM_BOUND && lots <= TERM_BOUND && lots >= -TERM_BOUND))
    return false;
  const term = (lots < 0 ? -lots : lots) * market.lotValueCeil;
  if (!(term <= TERM_BOUND)) return false;
  return needs <= units - margin + (quote + (-1 - 2 * term));
}

/** The account's signed position in a market as a number (0 without one; NaN past 2^53). */
export function heldUnits(market: MarketState, account: Account): number {
  const position = account.positions.slots[market.index];
  return position === undefined ? 0 : position.lots;
}
