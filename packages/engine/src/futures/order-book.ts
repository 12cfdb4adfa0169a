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
  /** `price` as a number (rounded past 2^53: ties are then broken on `price`). */
  readonly key: number;
  readonly queue: RestingOrder[];
  head: number;
  /** Lots open at this level. */
  total: bigint;
  /** Orders open at this level. */
  live: number;
  /** The skip list's forward links, worse levels next (`next[0]` is the next level). */
  readonly next: (Level | undefined)[];
}

/** Levels of a skip list: enough for millions of levels at p = 1/4. */
const MAX_HEIGHT = 12;

/** A level map's key: the price as a number while that is exact (faster to hash than a bigint). */
const mapKey = (price: bigint): number | bigint => (price <= 9_007_199_254_740_991n ? Number(price) : price);

/**
 * One side of a book: its levels in a map by price and in a skip list, best first (bids
 * descending, asks ascending), so finding a level is O(1), adding or dropping one O(log levels) and
 * the best level is the list's first.
 */
class BookSide {
  private readonly levels = new Map<number | bigint, Level>();
  private readonly head: Level;
  /** The nodes before a search position, per height (reused). */
  private readonly before: Level[];
  private height = 1;
  /** xorshift32 state for node heights (the list's shape never changes the book's answers). */
  private seed = 0x2545f491;

  constructor(readonly bids: boolean) {
    this.head = newLevel(0n, MAX_HEIGHT);
    this.before = new Array<Level>(MAX_HEIGHT).fill(this.head);
  }

  get(price: bigint): Level | undefined {
    return this.levels.get(mapKey(price));
  }

  /** The best level (undefined when the side is empty). */
  first(): Level | undefined {
    return this.head.next[0];
  }

  /** Whether `level` comes before (is better than) a level at `price`. */
  private better(level: Level, key: number, price: bigint): boolean {
    if (level.key !== key) return this.bids ? level.key > key : level.key < key;
    return this.bids ? level.price > price : level.price < price;
  }

  /** Fills `before` with the last node of each height that is better than `price`. */
  private search(key: number, price: bigint): void {
    let node = this.head;
    for (let h = this.height - 1; h >= 0; h--) {
      let next = node.next[h];
      while (next !== undefined && this.better(next, key, price)) {
        node = next;
        next = node.next[h];
      }
      this.before[h] = node;
    }
  }

  private randomHeight(): number {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    let height = 1;
    while (height < MAX_HEIGHT && (x & 3) === 0) {
      height++;
      x >>>= 2;
    }
    return height;
  }

  levelFor(price: bigint): Level {
    const mk = mapKey(price);
    let level = this.levels.get(mk);
    if (level) return level;
    const key = Number(price);
    this.search(key, price);
    const height = this.randomHeight();
    for (let h = this.height; h < height; h++) this.before[h] = this.head;
    if (height > this.height) this.height = height;
    level = newLevel(price, height);
    for (let h = 0; h < height; h++) {
      level.next[h] = this.before[h]!.next[h];
      this.before[h]!.next[h] = level;
    }
    this.levels.set(mk, level);
    return level;
  }

  dropLevel(level: Level): void {
    this.levels.delete(mapKey(level.price));
    this.search(level.key, level.price);
    for (let h = 0; h < level.next.length; h++) {
      const before = this.before[h]!;
      if (before.next[h] === level) before.next[h] = level.next[h];
    }
    while (this.height > 1 && this.head.next[this.height - 1] === undefined) this.height--;
  }

  /** The best level's first open order. */
  best(): RestingOrder | undefined {
    const level = this.head.next[0];
    if (level === undefined) return undefined;
    while (level.head < level.queue.length) {
      const order = level.queue[level.head]!;
      if (order.remaining > 0n) return order;
      level.head++;
    }
    return undefined;
  }
}

function newLevel(price: bigint, height: number): Level {
  return {
    price,
    key: Number(price),
    queue: [],
    head: 0,
    total: 0n,
    live: 0,
    next: new Array<Level | undefined>(height).fill(undefined),
  };
}

/**
 * A price-time-priority limit order book. Levels live in a map by price and a skip list per side
 * (a new or emptied level costs O(log levels)), orders in a FIFO per level and in a map by id, so
 * placing, cancelling and matching cost about the same whether the book holds a thousand orders or
 * a hundred thousand.
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
    return this.sides[side].first()?.price;
  }

  /** Fills `lots` of a resting order; an order filled in full leaves the book. */
  fill(order: RestingOrder, lots: bigint): void {
    const side = this.sides[order.side];
    const level = side.get(order.price)!;
    order.remaining -= lots;
    level.total -= lots;
    if (order.remaining === 0n) this.retire(side, level, order);
  }

  /** Removes an open order; answers it, or undefined when it is not in the book. */
  cancel(id: number): RestingOrder | undefined {
    const order = this.byId.get(id);
    if (!order) return undefined;
    const side = this.sides[order.side];
    const level = side.get(order.price)!;
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
    const out: { price: bigint; size: bigint; orders: number }[] = [];
    for (let level = this.sides[side].first(); level && out.length < levels; level = level.next[0]) {
      out.push({ price: level.price, size: level.total, orders: level.live });
    }
    return out;
  }

  /**
   * The worst price a taker sweeping `lots` from this side reaches, no further than `limit`
   * (undefined when nothing is open within it): what a market order's margin is checked at.
   */
  sweepPrice(side: PerpSide, lots: bigint, limit: bigint): bigint | undefined {
    let total = 0n;
    let last: bigint | undefined;
    for (let level = this.sides[side].first(); level; level = level.next[0]) {
      const price = level.price;
      if (side === 'sell' ? price > limit : price < limit) break;
      last = price;
      total += level.total;
      if (total >= lots) break;
    }
    return last;
  }
}
