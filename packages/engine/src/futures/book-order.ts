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

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A resting order as the book holds it: its price and open lots also as plain numbers, exact (the
 * venue takes in no price or size past 2^53 − 1), which is what matching and margin work on. A book
 * reuses the object once the order has left (OrderBook.newOrder, {@link reset}): the exchange hands
 * out copies ({@link toJSON}), and nothing may keep one of these past the command that read it.
 */
export class BookOrder implements RestingOrder {
  // Every field is set in `reset` (the constructor's body), none by an initializer or a parameter
  // property: the bundle would emit those as class fields, which V8 defines in an initializer
  // function of their own, one more call per order.
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
  // The links below are the book's and the owner's (internal: read by order-book.ts and
  // open-order-ids.ts only).
  /** The level that holds it while it rests, and its neighbours in the level's queue. */
  declare level: Level | undefined;
  declare prev: BookOrder | undefined;
  declare next: BookOrder | undefined;
  /** Its place in its owner's open orders (perp-open-orders' OpenOrderIds; −1 out of them). */
  declare ownerSlot: number;
  /**
   * When it joined a book (the count of orders added to any book in the process): a book's
   * {@link OrderBook.orders} and an account's open orders sort by it.
   */
  declare seq: number;

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
    this.reset(id, market, account, side, price, px, size, remaining, reduceOnly, leverage, createdAt);
  }

  /**
   * Sets every field, as a new order's (the constructor's body, and how a book reuses a spare
   * order). The fields that matching, resting and cancelling read come first: V8 lays them out in
   * the order they are first set, so those share the object's first cache lines.
   */
  reset(
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
  ): this {
    // The identity fields are read-only to everyone else: only a reset (a new order) sets them.
    const order = this as Writable<BookOrder>;
    order.id = id;
    order.rem = remaining;
    order.px = px;
    order.level = undefined;
    order.prev = undefined;
    order.next = undefined;
    order.owner = undefined;
    order.margin = 0;
    order.ownerSlot = -1;
    order.side = side;
    order.reduceOnly = reduceOnly;
    order.home = undefined;
    order.leverage = leverage;
    order.price = price;
    order.size = size;
    order.market = market;
    order.account = account;
    order.createdAt = createdAt;
    order.seq = 0;
    return this;
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
