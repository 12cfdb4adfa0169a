import { abs, sign, type MarketState, type PerpAccount, type PerpVenueState } from './perp-state';

/**
 * Settles one side of a fill: `lots` signed (positive buys) for `notional`. A fill that reduces the
 * position realizes the closed part's PnL into collateral (the position keeps its entry for the
 * rest); the fee goes to the venue. Answers the realized PnL.
 */
export function applyFill(
  venue: PerpVenueState,
  market: MarketState,
  account: PerpAccount,
  lots: bigint,
  notional: bigint,
  fee: bigint,
): bigint {
  const symbol = market.spec.symbol;
  const position = account.positions.get(symbol) ?? { size: 0n, quote: 0n, funding: 0n };
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
