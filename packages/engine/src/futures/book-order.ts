import type { PerpSide } from './perp-math';
import type { Account, MarketState } from './perp-state';

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

/**
 * A resting order as the book holds it: its price and open lots also as plain numbers, exact (the
 * venue takes in no price or size past 2^53 − 1), which is what matching and margin work on.
 */
export class BookOrder implements RestingOrder {
  // Every field is set in the constructor (and again by {@link OrderPool.newOrder} as it reuses
  // one), none by an initializer or a parameter property: the bundle would emit those as class
  // fields, which V8 defines in an initializer function of their own, one more call per order.
  declare readonly id: number;
  declare readonly market: string;
  declare readonly account: string;
  declare readonly side: PerpSide;
  declare readonly price: bigint;
  /** `price` as a number (the caller has it: no conversion per order). */
  declare readonly px: number;
  declare readonly size: bigint;
  declare readonly reduceOnly: boolean;
  declare leverage: number;
  declare readonly createdAt: number;
  /** Lots still open, as a number. */
  declare rem: number;
  /**
   * The initial margin it holds now in its owner's order margin, as a number (kept by
   * perp-open-orders as it rests, fills and its leverage changes; NaN past 2^53: bigint then).
   */
  declare margin: number;
  /** Its owner's account and its market, set as it rests (no lookup by name per fill or cancel). */
  declare owner: Account | undefined;
  declare home: MarketState | undefined;
  // The links below are the book's and the owner's queues (internal: read by order-book.ts and
  // open-order-ids.ts only; what an order links to is never handed out through them).
  /** The level that holds it while it rests, and its neighbours in the level's queue. */
  declare level: Level | undefined;
  declare prev: BookOrder | undefined;
  declare next: BookOrder | undefined;
  /** Its neighbours among its owner's open orders (perp-open-orders' OpenOrderIds), oldest first. */
  /** Its place in its owner's open orders (perp-open-orders' OpenOrderIds; −1 out of them). */
  declare ownerSlot: number;
  /**
   * When it joined a book (the count of orders added to any book in the process): a book's
   * {@link OrderBook.orders} and an account's open orders sort by it.
   */
  declare seq: number;
  /**
   * Whether the order was ever handed out by the venue (a book's or an account's read, a cancel's
   * answer): only an order that never was may be reused once it leaves the book (see
   * {@link OrderPool.newOrder}), so no holder of an order ever sees it become another.
   */
  declare handedOut: boolean;

  constructor(
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
  ) {
    this.id = id;
    this.market = market;
    this.account = account;
    this.side = side;
    this.price = price;
    this.px = px;
    this.size = size;
    this.reduceOnly = reduceOnly;
    this.leverage = leverage;
    this.createdAt = createdAt;
    this.rem = remaining;
    this.margin = 0;
    this.owner = undefined;
    this.home = undefined;
    this.level = undefined;
    this.prev = undefined;
    this.next = undefined;
    this.ownerSlot = -1;
    this.seq = 0;
    this.handedOut = false;
  }

  static of(order: RestingOrder): BookOrder {
    return new BookOrder(
      order.id,
      order.market,
      order.account,
      order.side,
      order.price,
      Number(order.price),
      order.size,
      Number(order.remaining),
      order.reduceOnly,
      order.leverage,
      order.createdAt,
    );
  }

  get remaining(): bigint {
    return BigInt(this.rem);
  }

  set remaining(lots: bigint) {
    this.rem = Number(lots);
  }

  /** The order as a plain RestingOrder (what callers serialised before it was a class). */
  toJSON(): RestingOrder {
    const { id, market, account, side, price, size, remaining, reduceOnly, leverage, createdAt } = this;
    return { id, market, account, side, price, size, remaining, reduceOnly, leverage, createdAt };
  }
}

/** One price level: a FIFO queue of its open orders, linked through them (cancel is O(1)). */
export interface Level {
  price: bigint;
  /** `price` as a number (exact: the venue's prices are safe integers). */
  key: number;
  /** The oldest open order and the newest. */
  first: BookOrder | undefined;
  last: BookOrder | undefined;
  /** Lots open at this level (while `exact`). */
  total: number;
  /** Whether `total` is exact: false once it passed 2^53 (the queue is then summed in bigint). */
  exact: boolean;
  /** Orders open at this level. */
  live: number;
  /** The skip list's forward links, worse levels next (`next[0]` is the next level). */
  readonly next: (Level | undefined)[];
}

/** Spare orders a book keeps for reuse (a market order takes a few; the next adds reuse them). */
const MAX_SPARE_ORDERS = 1_024;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A book's spare orders: orders that left it never handed out, reused for new ones. Most orders
 * rest a while, are filled or cancelled and go; at 10,000 resting orders a new object for each
 * outlived V8's young generation to be copied out of it (the collector took 15 % of the venue's time).
 */
export class OrderPool {
  private readonly spare: BookOrder[] = [];

  /**
   * A new order to rest in a book: a spare one reset to these values when there is one. None
   * is ever one a caller holds: an order goes back to the spares only from {@link recycle}, which
   * takes none that was handed out.
   */
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
    const reused = this.spare.pop();
    if (reused === undefined) {
      return new BookOrder(
        id,
        market,
        account,
        side,
        price,
        px,
        size,
        remaining,
        reduceOnly,
        leverage,
        createdAt,
      );
    }
    // Readonly to everyone else; rewritten here, in the constructor's order, as a new one.
    const order = reused as Writable<BookOrder>;
    order.id = id;
    order.market = market;
    order.account = account;
    order.side = side;
    order.price = price;
    order.px = px;
    order.size = size;
    order.reduceOnly = reduceOnly;
    order.leverage = leverage;
    order.createdAt = createdAt;
    order.rem = remaining;
    order.margin = 0;
    order.owner = undefined;
    order.home = undefined;
    // level, prev, next and ownerSlot were cleared as it left the book and its owner's orders.
    order.seq = 0;
    return reused;
  }

  /**
   * An order that has just left its book, to answer a caller with: the order itself when it was
   * handed out before (its holders see it cancelled), else a copy of it (handed out), the order
   * going back to the spares — nobody held it, so nobody can tell the copy from it.
   */
  handOut(order: BookOrder): BookOrder {
    if (order.handedOut) return order;
    const copy = new BookOrder(
      order.id,
      order.market,
      order.account,
      order.side,
      order.price,
      order.px,
      order.size,
      order.rem,
      order.reduceOnly,
      order.leverage,
      order.createdAt,
    );
    copy.margin = order.margin;
    copy.owner = order.owner;
    copy.home = order.home;
    copy.seq = order.seq;
    copy.handedOut = true;
    this.recycle(order);
    return copy;
  }

  /**
   * Takes back an order that has left its book (filled, or cancelled by matching) for
   * {@link newOrder}, unless it was ever handed out. The caller holds it no longer.
   */
  recycle(order: BookOrder): void {
    if (order.handedOut || order.level !== undefined || this.spare.length >= MAX_SPARE_ORDERS) return;
    this.spare.push(order);
  }
}
