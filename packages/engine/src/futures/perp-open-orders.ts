import type { BookOrder } from './order-book';
import { orderMarginOf } from './perp-margin';
import { initialMargin, notionalOf } from './perp-math';
import { orderMarginUnits } from './perp-margin-units';
import type { Account, MarketState, PerpVenueState } from './perp-state';

// An open order is in three places kept together here: its market's book, its account's order set,
// and the account's order margin.

/** The open order with this id, in whichever market's book holds it. */
export function findOrder(venue: PerpVenueState, id: number): BookOrder | undefined {
  for (const market of venue.markets.values()) {
    const order = market.book.get(id);
    if (order) return order;
  }
  return undefined;
}

/** The initial margin an order holds now, as a bigint (only past 2^53: see {@link BookOrder.margin}). */
function marginOf(market: MarketState, order: BookOrder): bigint {
  return initialMargin(notionalOf(order.remaining, order.price, market.spec.sizeDecimals), order.leverage);
}

/**
 * Puts an order in its book, its owner's open orders and order margin. `margin`: the initial margin
 * it holds, when the caller has it already (the order check computes it), else NaN.
 */
export function restOrder(market: MarketState, account: Account, order: BookOrder, margin = NaN): void {
  order.owner = account;
  order.home = market;
  market.book.add(order);
  account.orders.push(order);
  holdMargin(market, account, order, margin === margin ? margin : orderMarginUnits(market, order));
}

/** Sets the order's margin to `units` (its {@link orderMarginUnits}) and adds it to its owner's. */
function holdMargin(market: MarketState, account: Account, order: BookOrder, units: number): void {
  order.margin = units;
  if (units === units) {
    if (units !== 0) account.hold(units);
  } else account.orderMargin += marginOf(market, order);
}

/** Takes the order's margin back from its owner's order margin. */
function releaseMargin(market: MarketState, account: Account, order: BookOrder): void {
  const units = order.margin;
  if (units === units) {
    if (units !== 0) account.hold(-units);
  } else account.orderMargin -= marginOf(market, order);
}

export function unrestOrder(venue: PerpVenueState, account: Account, order: BookOrder): void {
  const market = order.home!;
  releaseMargin(market, account, order);
  market.book.remove(order);
  account.orders.remove(order);
  market.book.recycle(order);
}

/** Fills `lots` of a resting order, keeping its owner's order margin and order set in step. */
export function fillRestingOrder(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  order: BookOrder,
  lots: number,
): void {
  const heldBefore = order.margin;
  if (heldBefore === heldBefore) {
    market.book.fill(order, lots);
    // A filled order holds nothing (orderMarginUnits answers 0 for it): not recomputed.
    // Fewer lots at the same price and leverage: the margin stays a number.
    const held = order.rem === 0 ? 0 : orderMarginUnits(market, order);
    order.margin = held;
    if (held !== heldBefore) account.hold(held - heldBefore);
  } else {
    const before = orderMarginOf(venue.markets, order);
    market.book.fill(order, lots);
    order.margin = orderMarginUnits(market, order);
    account.orderMargin += orderMarginOf(venue.markets, order) - before;
  }
  if (order.rem === 0) {
    account.orders.remove(order);
    market.book.recycle(order);
  }
}

/** An order's leverage changes (its owner's setting did): its margin follows; the caller sets the owner's total. */
export function releverOrder(market: MarketState, order: BookOrder, leverage: number): void {
  order.leverage = leverage;
  order.margin = orderMarginUnits(market, order);
}

/** Cancels every open order of an account (in one market, or all); answers their ids. */
export function cancelAllOrders(venue: PerpVenueState, accountId: string, symbol?: string): number[] {
  const account = venue.accounts.get(accountId);
  if (!account) return [];
  const ids: number[] = [];
  for (const order of account.orders.orders()) {
    if (symbol === undefined || order.market === symbol) {
      unrestOrder(venue, account, order);
      ids.push(order.id);
    }
  }
  return ids;
}
