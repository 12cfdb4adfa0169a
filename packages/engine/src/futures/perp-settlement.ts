import { abs, pend, Position, sign, type Account, type MarketState, type PerpVenueState } from './perp-state';
import { add, mul, quot, sub } from './perp-units';

/**
 * Settles one side of a fill: `lots` signed (positive buys) for `notional`. A fill that reduces the
 * position realizes the closed part's PnL into collateral (the position keeps its entry for the
 * rest); the fee goes to the venue. Answers the realized PnL.
 */
export function applyFill(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  lots: bigint,
  notional: bigint,
  fee: bigint,
): bigint {
  const symbol = market.spec.symbol;
  const position = account.positions.get(symbol) ?? new Position(0n, 0n, 0n);
  const cash = lots > 0n ? -notional : notional;
  const before = position.size;
  let realized = 0n;
  if (before === 0n || sign(before) === sign(lots)) {
    position.quote += cash;
  } else {
    const closed = abs(lots) < abs(before) ? abs(lots) : abs(before);
    const keptEntry = (position.quote * (abs(before) - closed)) / abs(before);
    const cashClose = (cash * closed) / abs(lots);
    realized = position.quote - keptEntry + cashClose;
    position.quote = keptEntry + (cash - cashClose);
    account.collateral += realized;
  }
  position.size = before + lots;
  market.longLots += (position.size > 0n ? position.size : 0n) - (before > 0n ? before : 0n);
  account.collateral -= fee;
  venue.fees += fee;
  if (position.size === 0n) {
    // Rounding dust of a fully closed position is realized too.
    account.collateral += position.quote;
    realized += position.quote;
    account.positions.delete(symbol);
  } else account.positions.set(symbol, position);
  return realized;
}

/**
 * {@link applyFill} with `lots`, `notional` and `fee` as numbers, in exact numbers while the
 * position's values allow (else in bigint): the same arithmetic, written back to the account once.
 * Answers the realized PnL: a number on the exact path (no bigint made for a fill nobody reads it
 * from), the bigint {@link applyFill} answered otherwise. The fee is not added to the venue's
 * fees (the caller does that, once per taker); the long lots go to the market's pending ones.
 */
export function applyFillUnits(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  lots: number,
  notional: number,
  fee: number,
): number | bigint {
  const symbol = market.spec.symbol;
  const position = account.positions.slots[market.index];
  const before = position === undefined ? 0 : position.lots;
  const quote = position === undefined ? 0 : position.cash;
  const cash = lots > 0 ? -notional : notional;
  let realized = 0;
  let nextQuote: number;
  if (before === 0 || before > 0 === lots > 0) {
    nextQuote = add(quote, cash);
  } else {
    const held = before < 0 ? -before : before;
    const traded = lots < 0 ? -lots : lots;
    const closed = traded < held ? traded : held;
    const keptEntry = quot(mul(quote, held - closed), held);
    const cashClose = quot(mul(cash, closed), traded);
    realized = add(sub(quote, keptEntry), cashClose);
    nextQuote = add(keptEntry, sub(cash, cashClose));
  }
  const after = add(before, lots);
  // Rounding dust of a fully closed position is realized too.
  if (after === 0) realized = add(realized, nextQuote);
  const collateral = sub(realized, fee);
  const longs = (after > 0 ? after : 0) - (before > 0 ? before : 0);
  if (collateral !== collateral || after !== after || nextQuote !== nextQuote || longs !== longs) {
    const exact = applyFill(venue, market, account, BigInt(lots), BigInt(notional), BigInt(fee));
    venue.fees -= BigInt(fee);
    return exact;
  }
  if (collateral !== 0) account.credit(collateral);
  if (longs !== 0) {
    const pending = pend(market.longLotsPending, longs);
    if (pending === pending) market.longLotsPending = pending;
    else market.longLots += BigInt(longs);
  }
  if (after === 0) account.positions.delete(symbol);
  else if (position === undefined) {
    const opened = new Position(0n, 0n, 0n);
    opened.lots = after;
    opened.cash = nextQuote;
    account.positions.set(symbol, opened);
  } else {
    position.lots = after;
    position.cash = nextQuote;
  }
  return realized;
}
