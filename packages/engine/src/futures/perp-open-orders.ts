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

/** The initial margin an order holds now, as a bigint (only past 2^53: see {@link holdMargin}). */
function marginOf(market: MarketState, order: BookOrder): bigint {
  return initialMargin(notionalOf(order.remaining, order.price, market.spec.sizeDecimals), order.leverage);
}

/** Adds (`sign` 1) or takes back (−1) the order's margin from its owner's order margin. */
function holdMargin(market: MarketState, account: Account, order: BookOrder, sign: 1 | -1): void {
  const units = orderMarginUnits(market, order);
  if (units === units) {
    if (units !== 0) account.hold(sign * units);
  } else account.orderMargin += sign === 1 ? marginOf(market, order) : -marginOf(market, order);
}

export function restOrder(market: MarketState, account: Account, order: BookOrder): void {
  order.owner = account;
  order.home = market;
  market.book.add(order);
  account.orders.push(order);
  holdMargin(market, account, order, 1);
}

export function unrestOrder(venue: PerpVenueState, account: Account, order: BookOrder): void {
  const market = order.home!;
  holdMargin(market, account, order, -1);
  market.book.remove(order);
  account.orders.remove(order);
}

/** Fills `lots` of a resting order, keeping its owner's order margin and order set in step. */
export function fillRestingOrder(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  order: BookOrder,
  lots: number,
): void {
  const heldBefore = orderMarginUnits(market, order);
  if (heldBefore === heldBefore) {
    market.book.fill(order, lots);
    // A filled order holds nothing (orderMarginUnits answers 0 for it): not recomputed.
    const change = (order.rem === 0 ? 0 : orderMarginUnits(market, order)) - heldBefore;
    if (change !== 0) account.hold(change);
  } else {
    const before = orderMarginOf(venue.markets, order);
    market.book.fill(order, lots);
    account.orderMargin += orderMarginOf(venue.markets, order) - before;
  }
  if (order.rem === 0) account.orders.remove(order);
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
