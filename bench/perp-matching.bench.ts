import { PerpExchange, type PerpMarketSpec } from '@solterm/engine';
import { report, round } from './lib/harness';

// The perp venue's matching engine in process: mixed operations (10 % market orders; otherwise a
// limit place while the book holds fewer than the target resting orders, else a cancel — about
// 45/45/10) on SOL-PERP with the book held at 1,000 resting orders over 500 levels, then at 10,000,
// each operation timed including its margin check. 100 accounts; seeded, no I/O.
const TARGET_OPS_PER_SECOND = 200_000;
const TARGET_P99_MS = 1;
const MAX_SLOWDOWN = 0.2;
const OPS = 200_000;

const SOL: PerpMarketSpec = {
  symbol: 'SOL-PERP',
  sizeDecimals: 3,
  tick: 10_000n,
  minSize: 1n,
  maxLeverage: 100,
};
const ORACLE = 100_000_000n;

function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function run(resting: number) {
  const random = lcg(resting);
  const exchange = new PerpExchange([SOL]);
  exchange.setOracle('SOL-PERP', ORACLE);
  const accounts = Array.from({ length: 100 }, (_, i) => `a${i}`);
  for (const account of accounts) exchange.deposit(account, 10n ** 15n);
  const live: { id: number; account: string }[] = [];
  let at = 0;
  const place = () => {
    const account = accounts[Math.floor(random() * accounts.length)]!;
    const buy = random() < 0.5;
    const level = BigInt(1 + Math.floor(random() * 250)); // 250 levels a side, one tick apart
    const price = buy ? ORACLE - level * SOL.tick : ORACLE + level * SOL.tick;
    const size = BigInt(1 + Math.floor(random() * 50));
    const result = exchange.placeOrder({
      account,
      market: 'SOL-PERP',
      side: buy ? 'buy' : 'sell',
      type: 'limit',
      size,
      price,
      leverage: 10,
      at: at++,
    });
    if (result.resting > 0n) live.push({ id: result.orderId, account });
  };
  const book = exchange.market('SOL-PERP').book;
  while (book.size < resting) place();
  const samples = new Float64Array(OPS);
  const started = performance.now();
  for (let i = 0; i < OPS; i++) {
    const t0 = performance.now();
    const roll = random();
    if (roll >= 0.1 && book.size < resting) place();
    else if (roll >= 0.1) {
      const at = Math.floor(random() * live.length);
      const order = live[at]!;
      live[at] = live[live.length - 1]!;
      live.pop();
      // A filled order is gone already; cancelling it is refused without a change (still one operation).
      try {
        exchange.cancelOrder(order.account, order.id);
      } catch {
        // refused: the order filled
      }
    } else {
      const account = accounts[Math.floor(random() * accounts.length)]!;
      exchange.placeOrder({
        account,
        market: 'SOL-PERP',
        side: random() < 0.5 ? 'buy' : 'sell',
        type: 'market',
        size: BigInt(1 + Math.floor(random() * 100)),
        leverage: 10,
        at: at++,
      });
    }
    samples[i] = performance.now() - t0;
  }
  const ms = performance.now() - started;
  samples.sort();
  return {
    opsPerSecond: OPS / (ms / 1000),
    p99: samples[Math.floor(OPS * 0.99)]!,
    book: exchange.market('SOL-PERP').book.size,
  };
}

run(1_000); // warm-up
const small = run(1_000);
const large = run(10_000);
const slowdown = 1 - large.opsPerSecond / small.opsPerSecond;
report(
  'perp-matching',
  {
    ops: OPS,
    ops_per_s_1k: Math.round(small.opsPerSecond),
    p99_ms_1k: round(small.p99, 4),
    book_1k: small.book,
    ops_per_s_10k: Math.round(large.opsPerSecond),
    p99_ms_10k: round(large.p99, 4),
    book_10k: large.book,
    slowdown_pct: round(slowdown * 100),
  },
  [
    `target_ops_per_s=${TARGET_OPS_PER_SECOND}`,
    `target_p99_ms=${TARGET_P99_MS}`,
    `target_slowdown_pct=${MAX_SLOWDOWN * 100}`,
  ],
  small.opsPerSecond >= TARGET_OPS_PER_SECOND &&
    small.p99 < TARGET_P99_MS &&
    large.p99 < TARGET_P99_MS &&
    slowdown <= MAX_SLOWDOWN,
);
