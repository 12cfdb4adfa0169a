import { Dec } from '../money/decimal';

/**
 * Slippage of a fill against the quote the trader saw, in basis points; positive is worse for the
 * trader. Buy: `(filled − quoted) / quoted × 10 000`; Sell: `(quoted − filled) / quoted × 10 000`.
 *
 * @throws RangeError when the quoted price is not a finite number > 0.
 * @example
 * slippageBps({ side: 'Buy', quotedPrice: new Dec(100), filledPrice: new Dec('100.5') }); // 50
 * slippageBps({ side: 'Sell', quotedPrice: new Dec(100), filledPrice: new Dec('100.5') }); // -50
 */
export function slippageBps(input: { side: 'Buy' | 'Sell'; quotedPrice: Dec; filledPrice: Dec }): Dec {
  const quoted = new Dec(input.quotedPrice);
  const filled = new Dec(input.filledPrice);
  if (!quoted.isFinite() || !quoted.gt(0)) {
    throw new RangeError(`quotedPrice must be a finite number > 0, got ${quoted.toString()}`);
  }
  if (!filled.isFinite()) throw new RangeError(`filledPrice must be finite, got ${filled.toString()}`);
  const worse = input.side === 'Buy' ? filled.minus(quoted) : quoted.minus(filled);
  return worse.times(10_000).div(quoted);
}
