import { Dec, fromBaseUnits } from '../money/decimal';

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

/** What a fill cost the trader, exact: the one receipt of market swaps and limit fills alike. */
export interface ExecutionReceipt {
  readonly quotedPrice: Dec;
  readonly filledPrice: Dec;
  readonly slippageBps: Dec;
  /** The network fee the trader's wallet paid, in SOL (zero when someone else paid it). */
  readonly networkFeeSol: Dec;
  /** The venue's fee in quote units (whole tokens). */
  readonly venueFee: Dec;
  readonly timeToLandMs: number;
  readonly priorityFeeMicroLamports: number;
}

export interface ExecutionReceiptInput {
  readonly side: 'Buy' | 'Sell';
  /** The price the trader saw (market) or set (limit). */
  readonly quotedPrice: Dec;
  /** The legs that moved: base units of the base token and of the quote token. */
  readonly baseUnits: bigint;
  readonly quoteUnits: bigint;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  readonly networkFeeLamports: bigint;
  readonly venueFee: Dec;
  readonly timeToLandMs: number;
  readonly priorityFeeMicroLamports: number;
}

/**
 * The receipt of a fill from the amounts that moved on chain: the fill price is quote units over
 * base units, slippage is measured against the quoted price.
 *
 * @example
 * executionReceipt({ side: 'Buy', quotedPrice: new Dec(100), baseUnits: 1_000_000_000n, baseDecimals: 9,
 *   quoteUnits: 100_500_000n, quoteDecimals: 6, networkFeeLamports: 5000n, venueFee: new Dec('0.1'),
 *   timeToLandMs: 420, priorityFeeMicroLamports: 0 }).slippageBps.toString(); // '50'
 */
export function executionReceipt(input: ExecutionReceiptInput): ExecutionReceipt {
  const filledPrice = fromBaseUnits(input.quoteUnits, input.quoteDecimals).div(
    fromBaseUnits(input.baseUnits, input.baseDecimals),
  );
  return {
    quotedPrice: new Dec(input.quotedPrice),
    filledPrice,
    slippageBps: slippageBps({ side: input.side, quotedPrice: input.quotedPrice, filledPrice }),
    networkFeeSol: fromBaseUnits(input.networkFeeLamports, 9),
    venueFee: new Dec(input.venueFee),
    timeToLandMs: Math.max(0, Math.round(input.timeToLandMs)),
    priorityFeeMicroLamports: input.priorityFeeMicroLamports,
  };
}
