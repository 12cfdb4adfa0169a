export interface QuoteFirmnessInput {
  /** The trader's side on the base token. */
  side: 'Buy' | 'Sell';
  /** Quote base units of the quote the trader signed: what it pays (Buy) or receives (Sell). */
  quotedAmount: bigint;
  /** Quote base units the maker would quote for the same size now. */
  currentAmount: bigint;
  /** How far the price may have moved against the maker, in whole basis points of the current price. */
  toleranceBps: number;
}

/**
 * Whether a maker still honours a quote at execute time: the price may have moved against the maker
 * (a buy now costs more, a sell now pays less) by at most `toleranceBps` of the current price; a move
 * in the maker's favour is always fine. Exact on bigints (cross-multiplied, no rounding).
 *
 * Keep the tolerance below the maker's round trip (2 × (half spread + fee)): then taking a quote,
 * waiting, and executing only those that moved in the trader's favour never pays.
 *
 * @throws RangeError for a negative or fractional tolerance.
 * @example
 * isQuoteStillFirm({ side: 'Buy', quotedAmount: 100_000_000n, currentAmount: 100_100_000n, toleranceBps: 10 }); // true
 */
export function isQuoteStillFirm(input: QuoteFirmnessInput): boolean {
  const { side, quotedAmount, currentAmount, toleranceBps } = input;
  if (!Number.isInteger(toleranceBps) || toleranceBps < 0) {
    throw new RangeError(`toleranceBps must be an integer ≥ 0, got ${toleranceBps}`);
  }
  const makerLoss = side === 'Buy' ? currentAmount - quotedAmount : quotedAmount - currentAmount;
  return makerLoss * 10_000n <= BigInt(toleranceBps) * currentAmount;
}
