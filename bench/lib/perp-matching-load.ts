import { PerpExchange, type PerpMarketSpec, type PlaceOrderInput } from '@solterm/engine';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OrderBook as ReferenceBook, Side } from 'nodejs-order-book';
// The engine before #28, frozen for its differential test: the bench's "before" column.
import { PerpExchange as PerpExchangeBefore } from '../../packages/engine/src/futures/fixtures/engine-v1/perp-exchange';

// The perp-matching benchmark's work (bench/perp-matching.bench.ts bundles this file as production
// bundles the engine, then runs it). One recorded stream of operations on SOL-PERP — ≈ 75 % limit
// adds, 15 % cancels, 10 % market orders taking the best 6 resting orders of a side (up to 6
// levels) — is replayed on the venue (PerpExchange: margin check, fees, positions, collateral) and
// on nodejs-order-book (a bare book, no accounts), alternating, each round on a fresh book
// preloaded to the resting target.
// Makers and takers are different accounts, so both engines make the same fills.

const SOL: PerpMarketSpec = {
  symbol: 'SOL-PERP',
  sizeDecimals: 3,
  tick: 10_000n,
  minSize: 1n,
  maxLeverage: 100,
};
const ORACLE = 100_000_000n;
const MAKERS = 100;
const TAKERS = 10;
const LEVELS = 250;
const SWEEP_ORDERS = 6;
/**
 * The accounts' names as the operations carry them: one string per account, as a server's requests
 * bring a few hot names. A new string per operation put, in each cancel, the name made when its
 * order was added: thousands of operations back at 10,000 resting (a cache miss to read its hash),
 * a few hundred at 1,000, so the 10,000 rounds measured the stream's memory more than the book.
 * The venue's own names are other strings (made in `venue`), as a server's are.
 */
const MAKER_NAMES = Array.from({ length: MAKERS }, (_, i) => `m${i}`);
const TAKER_NAMES = Array.from({ length: TAKERS }, (_, i) => `t${i}`);

export interface Stream {
  resting: number;
  /** Adds that fill the book to its target before the timed part. */
  preload: Op[];
  ops: Op[];
  mix: { add: number; cancel: number; market: number };
}

type Op =
  | { kind: 'add'; ours: PlaceOrderInput; ref: { side: Side; id: string; size: number; price: number } }
  | { kind: 'cancel'; account: string; id: number; refId: string }
  | { kind: 'market'; ours: PlaceOrderInput; ref: { side: Side; size: number } };

function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function venue(before = false): PerpExchange {
  const exchange = before
    ? (new PerpExchangeBefore([SOL]) as unknown as PerpExchange)
    : new PerpExchange([SOL]);
  exchange.setOracle(SOL.symbol, ORACLE);
  for (let i = 0; i < MAKERS; i++) exchange.deposit(`m${i}`, 10n ** 15n);
  for (let i = 0; i < TAKERS; i++) exchange.deposit(`t${i}`, 10n ** 15n);
  return exchange;
}

/** Records `count` operations (after the preload) by running them once on the venue. */
export function record(resting: number, count: number, seed = resting): Stream {
  const random = lcg(seed);
  const exchange = venue();
  const book = exchange.market(SOL.symbol).book;
  const live: { id: number; account: string }[] = [];
  let at = 0;
  const add = (): Op => {
    const account = MAKER_NAMES[Math.floor(random() * MAKERS)]!;
    const buy = random() < 0.5;
    const level = 1 + Math.floor(random() * LEVELS);
    const price = buy ? ORACLE - BigInt(level) * SOL.tick : ORACLE + BigInt(level) * SOL.tick;
    const size = 1 + Math.floor(random() * 50);
    const ours: PlaceOrderInput = {
      account,
      market: SOL.symbol,
      side: buy ? 'buy' : 'sell',
      type: 'limit',
      size: BigInt(size),
      price,
      leverage: 10,
      at: at++,
    };
    const { orderId } = exchange.placeOrder(ours);
    live.push({ id: orderId, account });
    const ref = { side: buy ? Side.BUY : Side.SELL, id: String(orderId), size, price: Number(price) };
    return { kind: 'add', ours, ref };
  };
  const cancel = (): Op | undefined => {
    while (live.length > 0) {
      const index = Math.floor(random() * live.length);
      const order = live[index]!;
      live[index] = live[live.length - 1]!;
      live.pop();
      if (!book.get(order.id)) continue; // filled
      exchange.cancelOrder(order.account, order.id);
      return { kind: 'cancel', account: order.account, id: order.id, refId: String(order.id) };
    }
    return undefined;
  };
  const market = (): Op | undefined => {
    const buy = random() < 0.5;
    // The best SWEEP_ORDERS resting orders (whole levels while they fit, else a share of the level):
    // as many orders leave as the adds bring in net, so the book stays at its target.
    let lots = 0n;
    let orders = 0;
    for (const level of book.depth(buy ? 'sell' : 'buy', SWEEP_ORDERS)) {
      if (orders + level.orders > SWEEP_ORDERS) {
        lots += (level.size * BigInt(SWEEP_ORDERS - orders)) / BigInt(level.orders);
        break;
      }
      lots += level.size;
      orders += level.orders;
    }
    if (lots === 0n) return undefined;
    const ours: PlaceOrderInput = {
      account: TAKER_NAMES[Math.floor(random() * TAKERS)]!,
      market: SOL.symbol,
      side: buy ? 'buy' : 'sell',
      type: 'market',
      size: lots,
      leverage: 10,
      at: at++,
    };
    exchange.placeOrder(ours);
    return { kind: 'market', ours, ref: { side: buy ? Side.BUY : Side.SELL, size: Number(lots) } };
  };
  const preload: Op[] = [];
  while (book.size < resting) preload.push(add());
  const ops: Op[] = [];
  const mix = { add: 0, cancel: 0, market: 0 };
  while (ops.length < count) {
    const roll = random();
    const op = roll < 0.1 ? market() : roll < 0.25 || book.size >= resting ? cancel() : add();
    if (!op) continue;
    mix[op.kind]++;
    ops.push(op);
  }
  return { resting, preload, ops, mix };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface Round {
  /** Operations per wall-clock second and per CPU-second of this process. */
  wall: number;
  cpu: number;
}

/**
 * Promotes what a round's preload made (the resting orders, its book's structures) to the old
 * generation before the timed part, as a venue's long-resting orders are: two young-generation
 * collections. Otherwise the first collections of the timed part copy the whole preload, and a round
 * at 10,000 resting pays ten times what one at 1,000 pays for a book it has just built.
 */
const settle: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void;
  return () => {
    gc({ type: 'minor', execution: 'sync' });
    gc({ type: 'minor', execution: 'sync' });
  };
})();

function timed(count: number, run: () => void): Round {
  settle();
  const wall0 = performance.now();
  const cpu0 = cpuMs();
  run();
  const cpu = cpuMs() - cpu0;
  const wall = performance.now() - wall0;
  return { wall: count / (wall / 1000), cpu: count / (cpu / 1000) };
}

/** One round of the stream on the venue (`before`: the engine as it was before #28). */
export function roundOurs(stream: Stream, before = false): Round {
  const exchange = venue(before);
  for (const op of stream.preload) if (op.kind === 'add') exchange.placeOrder(op.ours);
  const { ops } = stream;
  return timed(ops.length, () => {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.kind === 'cancel') exchange.cancelOrder(op.account, op.id);
      else exchange.placeOrder(op.ours);
    }
  });
}

/** One round of the stream on nodejs-order-book. */
export function roundReference(stream: Stream): Round {
  const book = new ReferenceBook();
  for (const op of stream.preload) if (op.kind === 'add') book.limit(op.ref);
  const { ops } = stream;
  return timed(ops.length, () => {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.kind === 'add') book.limit(op.ref);
      else if (op.kind === 'cancel') book.cancel(op.refId);
      else book.market(op.ref);
    }
  });
}

/** A check that the replay is what was recorded: the venue's book size after a round. */
export function restingAfter(stream: Stream): number {
  const exchange = venue();
  for (const op of [...stream.preload, ...stream.ops]) {
    if (op.kind === 'cancel') exchange.cancelOrder(op.account, op.id);
    else exchange.placeOrder(op.ours);
  }
  return exchange.market(SOL.symbol).book.size;
}
