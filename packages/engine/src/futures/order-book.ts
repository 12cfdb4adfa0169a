import { BookOrder, type Level } from './book-order';
import { LevelIndex, OrderIndex } from './order-index';
import type { PerpSide } from './perp-math';
import { MAX_UNITS } from './perp-units';

export { BookOrder, type RestingOrder } from './book-order';

/** Orders added to any book so far: each order's {@link BookOrder.seq}. */
let added = 0;

/** Levels of a skip list: enough for millions of levels at p = 1/4. */
const MAX_HEIGHT = 12;
/** Unlinked levels a side keeps for reuse (a price level empties and refills all the time). */
const MAX_SPARE_LEVELS = 4_096;
/** Orders a book keeps for reuse (a book that once held more lets the rest go). */
const MAX_SPARE_ORDERS = 65_536;
/** A kept order's `ownerSlot` (−1 is an order out of its owner's orders; `reset` sets that again). */
const SPARE = -2;

/**
 * One side of a book: its levels in a map by price and in a skip list, best first (bids
 * descending, asks ascending), so finding a level is O(1), adding one O(log levels) and the best
 * level is the list's first. A level that empties stays linked (a price that empties is often
 * refilled soon): readers skip empty levels, the best one is unlinked as it reaches the front, and
 * the rest are swept out once they are as many as the open ones.
 */
class BookSide {
  private readonly levels = new LevelIndex<Level>();
  private readonly head: Level;
  /** The nodes before a search position, per height (reused). */
  private readonly before: Level[];
  private height = 1;
  /** Linked levels with no open order. */
  private empty = 0;
  /** xorshift32 state for node heights (the list's shape never changes the book's answers). */
  private seed = 0x2545f491;
  /**
   * Levels unlinked from the list, for reuse: a market sweep empties the best levels and the next
   * orders refill them, so a new level each time was most of what the book allocated. A spare
   * level keeps its height (drawn as any level's: which level is reused does not depend on it).
   */
  private readonly spare: Level[] = [];

  constructor(readonly bids: boolean) {
    this.head = newLevel(0n, 0, MAX_HEIGHT);
    this.before = new Array<Level>(MAX_HEIGHT).fill(this.head);
  }

  /** The best level (undefined when the side is empty); empty levels before it are unlinked. */
  first(): Level | undefined {
    const head = this.head;
    let level = head.next[0];
    while (level !== undefined && level.live === 0) {
      // The first node of the list is the first at each of its heights.
      for (let h = 0; h < level.next.length; h++) head.next[h] = level.next[h];
      this.unlinked(level);
      this.empty--;
      level = head.next[0];
    }
    while (this.height > 1 && head.next[this.height - 1] === undefined) this.height--;
    return level;
  }

  /** Fills `before` with the last node of each height that is better than `key`. */
  private search(key: number): void {
    let node = this.head;
    const bids = this.bids;
    for (let h = this.height - 1; h >= 0; h--) {
      let next = node.next[h];
      while (next !== undefined && (bids ? next.key > key : next.key < key)) {
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

  /** The level an order of this price joins (the caller adds it). */
  levelFor(order: BookOrder): Level {
    const key = order.px;
    let level = this.levels.get(key);
    if (level) {
      if (level.live === 0) this.empty--;
      return level;
    }
    this.search(key);
    level = this.spare.pop();
    if (level === undefined) level = newLevel(order.price, key, this.randomHeight());
    else {
      level.price = order.price;
      level.key = key;
    }
    const height = level.next.length;
    for (let h = this.height; h < height; h++) this.before[h] = this.head;
    if (height > this.height) this.height = height;
    for (let h = 0; h < height; h++) {
      level.next[h] = this.before[h]!.next[h];
      this.before[h]!.next[h] = level;
    }
    this.levels.add(level);
    return level;
  }

  /** A level's last open order left: it stays linked, empty, until it is refilled or swept out. */
  emptied(level: Level): void {
    level.total = 0;
    level.exact = true;
    this.empty++;
    if (this.empty > 32 && this.empty * 2 > this.levels.size) this.sweep();
  }

  /** Unlinks every empty level in one pass. */
  private sweep(): void {
    const before = this.before;
    for (let h = 0; h < MAX_HEIGHT; h++) before[h] = this.head;
    for (let level = this.head.next[0]; level !== undefined; level = level.next[0]) {
      const height = level.next.length;
      if (level.live === 0) {
        for (let h = 0; h < height; h++) before[h]!.next[h] = level.next[h];
        this.unlinked(level);
      } else for (let h = 0; h < height; h++) before[h] = level;
    }
    this.empty = 0;
    while (this.height > 1 && this.head.next[this.height - 1] === undefined) this.height--;
  }

  /** An empty level is out of the list: out of the map too, and kept for reuse (its links stay until then). */
  private unlinked(level: Level): void {
    this.levels.delete(level);
    if (this.spare.length < MAX_SPARE_LEVELS) this.spare.push(level);
  }

  /** The best level's first open order. */
  best(): BookOrder | undefined {
    const level = this.first();
    if (level === undefined) return undefined;
    return level.first;
  }
}

function newLevel(price: bigint, key: number, height: number): Level {
  return {
    price,
    key,
    first: undefined,
    last: undefined,
    total: 0,
    exact: true,
    live: 0,
    next: noLevels(height),
  };
}

/** `height` empty forward links (a loop: Array.prototype.fill is a call into the runtime). */
function noLevels(height: number): (Level | undefined)[] {
  const next: (Level | undefined)[] = [];
  for (let h = 0; h < height; h++) next.push(undefined);
  return next;
}

/** Lots open at a level, exactly. */
function levelLots(level: Level): bigint {
  if (level.exact) return BigInt(level.total);
  let total = 0n;
  for (let order = level.first; order !== undefined; order = order.next) total += BigInt(order.rem);
  return total;
}

/**
 * A price-time-priority limit order book. Levels live in a map by price and a skip list per side
 * (a new or emptied level costs O(log levels)), orders in a FIFO per level and in a map by id, so
 * placing, cancelling and matching cost about the same whether the book holds a thousand orders or
 * a hundred thousand. Prices and lots are plain numbers inside (exact integers; see BookOrder).
 */
export class OrderBook {
  private readonly buys = new BookSide(true);
  private readonly sells = new BookSide(false);
  private readonly byId = new OrderIndex();
  /**
   * Orders that left the book and their owner's orders, for reuse: a new resting order takes one
   * rather than a new object. With thousands resting, each new object lived through young-generation
   * collections and was copied, then promoted: most of what the book cost at 10,000 orders over
   * 1,000. So a book's orders are its own: {@link get}, {@link best} and {@link orders} answer them
   * to be read at once, never kept (the exchange hands out copies).
   */
  private readonly spareOrders: BookOrder[] = [];

  /** A new order for this book (a spare one reset, or a new object); the caller rests it. */
  newOrder(
    id: number,
    market: string,
    account: string,
    side: PerpSide,
    price: bigint,
    px: number,
    size: bigint,
    remaining: number,
    reduceOnly: boolean,
    leverage: number,
    createdAt: number,
  ): BookOrder {
    const spare = this.spareOrders.pop();
    return spare === undefined
      ? new BookOrder(id, market, account, side, price, px, size, remaining, reduceOnly, leverage, createdAt)
      : spare.reset(id, market, account, side, price, px, size, remaining, reduceOnly, leverage, createdAt);
  }

  /**
   * Keeps an order for reuse once it is out of this book and out of its owner's orders; one still
   * in either, or already kept, is left alone (never reused while something links to it, never
   * handed out twice).
   */
  recycle(order: BookOrder): void {
    if (order.level !== undefined || order.ownerSlot !== -1) return;
    if (this.spareOrders.length >= MAX_SPARE_ORDERS) return;
    order.ownerSlot = SPARE;
    this.spareOrders.push(order);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): BookOrder | undefined {
    return this.byId.get(id);
  }

  /** Whether an order with this id is open. */
  has(id: number): boolean {
    return this.byId.get(id) !== undefined;
  }

  private side(side: PerpSide): BookSide {
    return side === 'buy' ? this.buys : this.sells;
  }

  /** Rests an order (the caller has matched whatever crossed). */
  add(order: BookOrder): void {
    const level = this.side(order.side).levelFor(order);
    order.level = level;
    const last = level.last;
    order.prev = last;
    order.next = undefined;
    if (last === undefined) level.first = order;
    else last.next = order;
    level.last = order;
    level.total += order.rem;
    if (level.total > MAX_UNITS) level.exact = false;
    level.live++;
    order.seq = added++;
    this.byId.add(order);
  }

  /** The best open order of a side. */
  best(side: PerpSide): BookOrder | undefined {
    return this.side(side).best();
  }

  bestPrice(side: PerpSide): bigint | undefined {
    return this.side(side).first()?.price;
  }

  /** The best price of a side as a number (undefined when it is empty). */
  bestKey(side: PerpSide): number | undefined {
    return this.side(side).first()?.key;
  }

  /** Fills `lots` of a resting order; an order filled in full leaves the book. */
  fill(order: BookOrder, lots: number): void {
    const level = order.level!;
    order.rem -= lots;
    level.total -= lots;
    if (order.rem === 0) this.retire(this.side(order.side), level, order);
  }

  /** Removes an open order; answers it, or undefined when it is not in the book. */
  cancel(id: number): BookOrder | undefined {
    const order = this.byId.get(id);
    if (order) this.remove(order);
    return order;
  }

  /** Removes an open order of this book. */
  remove(order: BookOrder): void {
    const level = order.level!;
    level.total -= order.rem;
    order.rem = 0;
    this.retire(this.side(order.side), level, order);
  }

  private retire(side: BookSide, level: Level, order: BookOrder): void {
    this.byId.delete(order);
    const { prev, next } = order;
    if (prev === undefined) level.first = next;
    else prev.next = next;
    if (next === undefined) level.last = prev;
    else next.prev = prev;
    order.level = order.prev = order.next = undefined;
    level.live--;
    if (level.live === 0) side.emptied(level);
  }

  /** Every open order, in the order they joined the book (for snapshots). */
  orders(): BookOrder[] {
    return this.byId.values().sort((a, b) => a.seq - b.seq);
  }

  /** Aggregated levels, best first: `[price, lots, orders]`. */
  depth(side: PerpSide, levels: number): { price: bigint; size: bigint; orders: number }[] {
    const out: { price: bigint; size: bigint; orders: number }[] = [];
    for (let level = this.side(side).first(); level && out.length < levels; level = level.next[0]) {
      if (level.live === 0) continue;
      out.push({ price: level.price, size: levelLots(level), orders: level.live });
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
    for (let level = this.side(side).first(); level; level = level.next[0]) {
      if (level.live === 0) continue;
      const price = level.price;
      if (side === 'sell' ? price > limit : price < limit) break;
      last = price;
      total += levelLots(level);
      if (total >= lots) break;
    }
    return last;
  }

  /** {@link sweepPrice} in numbers (`lots` and `limit` safe integers). */
  sweepKey(side: PerpSide, lots: number, limit: number): number | undefined {
    let total = 0;
    let last: number | undefined;
    const asks = side === 'sell';
    for (let level = this.side(side).first(); level; level = level.next[0]) {
      if (level.live === 0) continue;
      const key = level.key;
      if (asks ? key > limit : key < limit) break;
      last = key;
      // Below `lots` every partial sum is exact; past 2^53 one may round, but never back below it.
      total += level.exact ? level.total : Number(levelLots(level));
      if (total >= lots) break;
    }
    return last;
  }
}
