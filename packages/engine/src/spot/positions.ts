import { Dec } from '../money/decimal';

/** One of a user's spot fills. */
export interface SpotFill {
  symbol: string;
  side: 'Buy' | 'Sell';
  /** Whole base tokens, > 0. */
  quantity: Dec;
  /** Whole quote per whole base, ≥ 0. */
  price: Dec;
  /** Milliseconds; only orders the fills. */
  at: number;
}

/** An open long position. Amounts in whole quote tokens unless noted. */
export interface SpotPosition {
  symbol: string;
  /** Whole base tokens held from fills. */
  size: Dec;
  /** Average cost of the open size, quote per base. */
  averageEntryPrice: Dec;
  markPrice: Dec;
  /** size × mark. */
  value: Dec;
  /** value − cost of the open size. */
  unrealizedPnl: Dec;
  /** unrealized / cost × 100 (0 when the open size cost nothing). */
  pnlPercent: Dec;
  realizedPnl: Dec;
}

interface Book {
  size: Dec;
  /** Cost of the open size. */
  cost: Dec;
  realized: Dec;
}

function assertFill(fill: SpotFill): void {
  if (!fill.quantity.isFinite() || !fill.quantity.gt(0)) {
    throw new RangeError(`fill quantity must be a finite number > 0, got ${fill.quantity.toString()}`);
  }
  if (!fill.price.isFinite() || fill.price.lt(0)) {
    throw new RangeError(`fill price must be a finite number ≥ 0, got ${fill.price.toString()}`);
  }
  if (!Number.isFinite(fill.at)) throw new RangeError(`fill time must be finite, got ${fill.at}`);
}

/**
 * Spot positions (long only) from a user's fills, by the average-cost method. Fills apply in `at`
 * order (input order on ties). A buy adds its size and cost; a sell closes at the average cost and
 * realizes `(sell price − average) × quantity`. A sell larger than the open size (tokens bought
 * elsewhere) realizes only on the open part and the excess is ignored, so the size never goes
 * negative. Returns the symbols with a positive size, by value descending (then symbol). Without a
 * mark the average entry is used and the unrealized pnl is 0.
 *
 * @throws RangeError for a fill with a non-positive quantity, a negative price or a non-finite time.
 * @example
 * derivePositions([
 *   { symbol: 'SOL', side: 'Buy', quantity: new Dec(1), price: new Dec(100), at: 1 },
 *   { symbol: 'SOL', side: 'Buy', quantity: new Dec(1), price: new Dec(200), at: 2 },
 *   { symbol: 'SOL', side: 'Sell', quantity: new Dec(1), price: new Dec(180), at: 3 },
 * ], () => new Dec(170));
 * // [{ symbol: 'SOL', size: 1, averageEntryPrice: 150, value: 170, unrealizedPnl: 20, realizedPnl: 30, … }]
 */
export function derivePositions(
  fills: readonly SpotFill[],
  markOf: (symbol: string) => Dec | undefined,
): SpotPosition[] {
  fills.forEach(assertFill);
  const ordered = fills.map((fill, index) => ({ fill, index }));
  ordered.sort((a, b) => a.fill.at - b.fill.at || a.index - b.index);

  const books = new Map<string, Book>();
  for (const { fill } of ordered) {
    let book = books.get(fill.symbol);
    if (book === undefined) {
      book = { size: new Dec(0), cost: new Dec(0), realized: new Dec(0) };
      books.set(fill.symbol, book);
    }
    // Re-wrap so a caller's decimal.js configuration never leaks into the arithmetic.
    const quantity = new Dec(fill.quantity);
    const price = new Dec(fill.price);
    if (fill.side === 'Buy') {
      book.size = book.size.plus(quantity);
      book.cost = book.cost.plus(quantity.times(price));
      continue;
    }
    const closed = Dec.min(quantity, book.size);
    if (closed.isZero()) continue;
    const average = book.cost.div(book.size);
    book.realized = book.realized.plus(price.minus(average).times(closed));
    book.size = book.size.minus(closed);
    // Re-deriving the cost from the average keeps the average fixed through sells, with no
    // cancellation error from subtracting nearly equal costs; flat books carry no residue.
    book.cost = book.size.isZero() ? new Dec(0) : average.times(book.size);
  }

  const positions: SpotPosition[] = [];
  for (const [symbol, { size, cost, realized }] of books) {
    if (!size.gt(0)) continue;
    const averageEntryPrice = cost.div(size);
    const mark = markOf(symbol);
    const hasMark = mark !== undefined && mark.isFinite();
    const markPrice = hasMark ? new Dec(mark) : averageEntryPrice;
    const value = size.times(markPrice);
    const unrealizedPnl = hasMark ? value.minus(cost) : new Dec(0);
    positions.push({
      symbol,
      size,
      averageEntryPrice,
      markPrice,
      value,
      unrealizedPnl,
      pnlPercent: cost.gt(0) ? unrealizedPnl.div(cost).times(100) : new Dec(0),
      realizedPnl: realized,
    });
  }
  return positions.sort((a, b) => b.value.comparedTo(a.value) || (a.symbol < b.symbol ? -1 : 1));
}
