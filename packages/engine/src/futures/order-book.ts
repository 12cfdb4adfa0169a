import type { PerpSide } from './perp-math';

/** An order resting in a book (mutable: its remaining size falls as it fills). */
export interface RestingOrder {
  readonly id: number;
  readonly market: string;
  readonly account: string;
  readonly side: PerpSide;
  /** USDC base units per token, a multiple of the tick. */
  readonly price: bigint;
  /** Lots at placement. */
  readonly size: bigint;
  /** Lots still open. */
  remaining: bigint;
  readonly reduceOnly: boolean;
  /** The owner's leverage in the market (changes with its setting: the order's margin follows). */
  leverage: number;
  /** Client time of placement (ms since epoch). */
  readonly createdAt: number;
}

/** One price level: a FIFO queue whose cancelled entries are skipped lazily (cancel is O(1)). */
interface Level {
  readonly price: bigint;
  readonly queue: RestingOrder[];
  head: number;
  /** Lots open at this level. */
  total: bigint;
  /** Orders open at this level. */
  live: number;
}

/** Index of the first price in `prices` (best first) not better than `price`. */
function searchSide(prices: bigint[], price: bigint, bids: boolean): number {
  let lo = 0;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const p = prices[mid]!;
    if (bids ? p > price : p < price) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class BookSide {
  readonly levels = new Map<bigint, Level>();
  /** Level prices, best first (bids descending, asks ascending). */
  readonly prices: bigint[] = [];

  constructor(readonly bids: boolean) {}

  levelFor(price: bigint): Level {
    let level = this.levels.get(price);
    if (!level) {
      level = { price, queue: [], head: 0, total: 0n, live: 0 };
      this.levels.set(price, level);
      this.prices.splice(searchSide(this.prices, price, this.bids), 0, price);
    }
    return level;
  }

  dropLevel(level: Level): void {
    this.levels.delete(level.price);
    const at = searchSide(this.prices, level.price, this.bids);
    if (this.prices[at] === level.price) this.prices.splice(at, 1);
  }

  /** The best level's first open order. */
  best(): RestingOrder | undefined {
    const price = this.prices[0];
    if (price === undefined) return undefined;
    const level = this.levels.get(price)!;
    while (level.head < level.queue.length) {
      const order = level.queue[level.head]!;
      if (order.remaining > 0n) return order;
      level.head++;
    }
    return undefined;
  }
}

/**
 * A price-time-priority limit order book. Levels live in a map by price with a sorted price array
 * per side (binary search; inserting a new level shifts at most the levels behind it), orders in a
 * FIFO per level and in a map by id, so placing at an existing level, cancelling and matching cost
 * the same whether the book holds a thousand orders or a hundred thousand.
 */
export class OrderBook {
  private readonly sides = { buy: new BookSide(true), sell: new BookSide(false) };
  private readonly byId = new Map<number, RestingOrder>();

  get size(): number {
    return this.byId.size;
  }

  get(id: number): RestingOrder | undefined {
    return this.byId.get(id);
  }

  /** Rests an order (the caller has matched whatever crossed). */
  add(order: RestingOrder): void {
    const level = this.sides[order.side].levelFor(order.price);
    level.queue.push(order);
    level.total += order.remaining;
    level.live++;
    this.byId.set(order.id, order);
  }

  /** The best open order of a side. */
  best(side: PerpSide): RestingOrder | undefined {
    return this.sides[side].best();
  }

  bestPrice(side: PerpSide): bigint | undefined {
    return this.sides[side].prices[0];
  }

  /** Fills `lots` of a resting order; an order filled in full leaves the book. */
  fill(order: RestingOrder, lots: bigint): void {
    const side = this.sides[order.side];
    const level = side.levels.get(order.price)!;
    order.remaining -= lots;
    level.total -= lots;
    if (order.remaining === 0n) this.retire(side, level, order);
  }

  /** Removes an open order; answers it, or undefined when it is not in the book. */
  cancel(id: number): RestingOrder | undefined {
    const order = this.byId.get(id);
    if (!order) return undefined;
    const side = this.sides[order.side];
    const level = side.levels.get(order.price)!;
    level.total -= order.remaining;
    order.remaining = 0n;
    this.retire(side, level, order);
    return order;
  }

  private retire(side: BookSide, level: Level, order: RestingOrder): void {
    this.byId.delete(order.id);
    level.live--;
    if (level.live === 0) side.dropLevel(level);
    else if (level.queue.length > 64 && level.head * 2 > level.queue.length) {
      // Compact the queue once most of it is spent, keeping time priority.
      level.queue.splice(0, level.head);
      level.head = 0;
    }
  }

  /** Every open order, oldest first within a level, bids then asks (for snapshots). */
  orders(): RestingOrder[] {
    return [...this.byId.values()];
  }

  /** Aggregated levels, best first: `[price, lots, orders]`. */
  depth(side: PerpSide, levels: number): { price: bigint; size: bigint; orders: number }[] {
    const bookSide = this.sides[side];
    return bookSide.prices.slice(0, levels).map((price) => {
      const level = bookSide.levels.get(price)!;
      return { price, size: level.total, orders: level.live };
    });
  }

  /**
   * The worst price a taker sweeping `lots` from this side reaches, no further than `limit`
   * (undefined when nothing is open within it): what a market order's margin is checked at.
   */
  sweepPrice(side: PerpSide, lots: bigint, limit: bigint): bigint | undefined {
    const bookSide = this.sides[side];
    let total = 0n;
    let last: bigint | undefined;
    for (const price of bookSide.prices) {
      if (side === 'sell' ? price > limit : price < limit) break;
      last = price;
      total += bookSide.levels.get(price)!.total;
      if (total >= lots) break;
    }
    return last;
  }
}
