import type { RestingOrder } from './order-book';
import { orderMarginOf } from './perp-margin';
import type { PerpAccount, PerpVenueState } from './perp-state';

// An open order is in three places kept together here: its market's book, its account's order set,
// and the account's order margin.

/** The open order with this id, in whichever market's book holds it. */
export function findOrder(venue: PerpVenueState, id: number): RestingOrder | undefined {
  for (const market of venue.markets.values()) {
    const order = market.book.get(id);
    if (order) return order;
  }
  return undefined;
}

export function restOrder(venue: PerpVenueState, account: PerpAccount, order: RestingOrder): void {
  venue.markets.get(order.market)!.book.add(order);
  account.orders.add(order.id);
  account.orderMargin += orderMarginOf(venue.markets, order);
}

export function unrestOrder(venue: PerpVenueState, account: PerpAccount, order: RestingOrder): void {
  account.orderMargin -= orderMarginOf(venue.markets, order);
  venue.markets.get(order.market)!.book.cancel(order.id);
  account.orders.delete(order.id);
}

/** Fills `lots` of a resting order, keeping its owner's order margin and order set in step. */
export function fillRestingOrder(
  venue: PerpVenueState,
  account: PerpAccount,
  order: RestingOrder,
  lots: bigint,
): void {
  const heldBefore = orderMarginOf(venue.markets, order);
  venue.markets.get(order.market)!.book.fill(order, lots);
  account.orderMargin += orderMarginOf(venue.markets, order) - heldBefore;
  if (order.remaining === 0n) account.orders.delete(order.id);
}

/** Cancels every open order of an account (in one market, or all); answers their ids. */
export function cancelAllOrders(venue: PerpVenueState, accountId: string, symbol?: string): number[] {
  const account = venue.accounts.get(accountId);
  if (!account) return [];
  const ids: number[] = [];
  for (const id of [...account.orders]) {
    const order = findOrder(venue, id);
    if (order && (symbol === undefined || order.market === symbol)) {
      unrestOrder(venue, account, order);
      ids.push(id);
    }
  }
  return ids;
}
