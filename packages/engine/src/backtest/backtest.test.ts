import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candleSeriesOf } from '../market/candle-series';
import type { WireCandle } from '../market/candle';
import { Dec, fromBaseUnits } from '../money/decimal';
import { getBuiltInStrategy, resolveParameters } from '../strategy/built-ins';
import { seededRandom } from '../strategy/random';
import { add, exactUnits, mul, sign, sub, toDec, ZERO, type Exact } from '../money/exact';
import { buyWithin, fillPrice, fixedCostVenue, rfqVenue, StrategyError } from '../strategy/runtime';
import type {
  BatchStrategyInstance,
  IntentAction,
  RiskRules,
  Sizing,
  StrategyInstance,
} from '../strategy/strategy';
import { runBacktest, type BacktestInput } from './backtest';

const SOL_USDC = { baseDecimals: 9, quoteDecimals: 6 };
const venue = rfqVenue({ ...SOL_USDC, quoteUsdPrice: new Dec(1) });
const risk = (overrides: Partial<RiskRules> = {}): RiskRules => ({
  amount: new Dec('1'),
  maxPositions: 1,
  stopLossPercent: null,
  takeProfitPercent: null,
  ...overrides,
});
const hourly = (closes: readonly number[], wick = 0): WireCandle[] =>
  closes.map((close, i) => {
    const open = i === 0 ? close : closes[i - 1]!;
    return {
      time: 3600 * (i + 1),
      open,
      close,
      high: Math.max(open, close) + wick,
      low: Math.min(open, close) - wick,
      volume: 1000,
    };
  });
const run = (input: Partial<BacktestInput> & Pick<BacktestInput, 'strategy' | 'series'>) =>
  runBacktest({
    risk: risk(),
    intervalSeconds: 3600,
    venue,
    ...SOL_USDC,
    initialCash: 10_000_000_000n,
    ...input,
  });
/** A strategy that plays the given actions, one per candle. */
const script = (actions: readonly (IntentAction | null)[]): StrategyInstance => {
  let i = 0;
  return { onCandle: () => (actions[i++] ? { action: actions[i - 1]! } : null) };
};

describe('the strategy runtime', () => {
  it('fills an intent at the close of the candle that produced it', () => {
    const result = run({
      strategy: script(['buy', null, 'sell']),
      series: candleSeriesOf(hourly([100, 110, 120])),
    });
    expect(result.fills.map((f) => [f.side, f.time, toDec(f.mid).toString()])).toEqual([
      ['Buy', 3600, '100'],
      ['Sell', 10800, '120'],
    ]);
    // Bought with spread and fee above the mid, sold below it.
    expect(fillPrice(result.fills[0]!, 9, 6).gt(100)).toBe(true);
    expect(fillPrice(result.fills[1]!, 9, 6).lt(120)).toBe(true);
    expect(result.totalTrades).toBe(1);
    expect(result.winningTrades).toBe(1);
  });

  it('checks the stop first when one candle reaches both the stop and the take profit', () => {
    const candles: WireCandle[] = [
      { time: 3600, open: 100, high: 100, low: 100, close: 100, volume: 1 },
      { time: 7200, open: 100, high: 120, low: 80, close: 100, volume: 1 },
    ];
    const result = run({
      strategy: script(['buy']),
      series: candleSeriesOf(candles),
      risk: risk({ stopLossPercent: new Dec(2), takeProfitPercent: new Dec(3) }),
    });
    const exit = result.fills[1]!;
    expect(exit.reason).toBe('stop loss');
    // 2 % under the effective entry price, not the mid.
    expect(toDec(exit.mid).toString()).toBe(fillPrice(result.fills[0]!, 9, 6).times(0.98).toString());
  });

  it('fills a stop at the open when the market gaps through it', () => {
    const candles: WireCandle[] = [
      { time: 3600, open: 100, high: 100, low: 100, close: 100, volume: 1 },
      { time: 7200, open: 90, high: 91, low: 89, close: 90, volume: 1 },
    ];
    const result = run({
      strategy: script(['buy']),
      series: candleSeriesOf(candles),
      risk: risk({ stopLossPercent: new Dec(2) }),
    });
    expect(toDec(result.fills[1]!.mid).toString()).toBe('90');
    expect(result.losingTrades).toBe(1);
  });

  it('never opens more lots than max positions, and sells the oldest first', () => {
    const result = run({
      strategy: script(['buy', 'buy', 'buy', 'sell']),
      series: candleSeriesOf(hourly([100, 90, 80, 85])),
      risk: risk({ maxPositions: 2 }),
    });
    expect(result.fills.map((f) => f.side)).toEqual(['Buy', 'Buy', 'Sell']);
    expect(result.fills[2]!.entryTime).toBe(3600);
    expect(result.refusedBuys).toBe(1);
    expect(result.openLots).toBe(1);
  });

  it('counts the buys refused for want of cash apart from those past max positions, with the first one’s cost', () => {
    const result = run({
      strategy: script(['buy', 'buy', 'exit', 'buy']),
      series: candleSeriesOf(hourly([100, 90, 80, 85])),
      // 5,000 SOL a buy on 1,000 USDC: none fits.
      risk: risk({ amount: new Dec(5000) }),
      initialCash: 1_000_000_000n,
    });
    expect(result.fills).toEqual([]);
    expect(result.refusedBuys).toBe(3);
    expect(result.unfundedBuys).toBe(3);
    expect(result.firstUnfunded!.cash).toBe(1_000_000_000n);
    expect(fromBaseUnits(result.firstUnfunded!.cost, 6).gt(500_000)).toBe(true);
    const capped = run({ strategy: script(['buy', 'buy']), series: candleSeriesOf(hourly([100, 90])) });
    expect([capped.refusedBuys, capped.unfundedBuys, capped.firstUnfunded]).toEqual([1, 0, null]);
  });

  it('ends the run with a clear error when a strategy returns something that is not an intent', () => {
    const strategy = { onCandle: () => ({ action: 'moon' }) } as unknown as StrategyInstance;
    expect(() => run({ strategy, series: candleSeriesOf(hourly([1, 2])) })).toThrow(StrategyError);
    expect(() => run({ strategy, series: candleSeriesOf(hourly([1, 2])) })).toThrow(
      /returned \{"action":"moon"\}/,
    );
  });

  it('the SMA crossover buys when the short average crosses above the long one', () => {
    const sma = getBuiltInStrategy('sma_crossover')!;
    const parameters = resolveParameters(sma, { short_window: 2, long_window: 3 });
    const result = run({
      strategy: sma.create(parameters, seededRandom(1)),
      series: candleSeriesOf(hourly([10, 9, 8, 7, 9, 11, 12, 8, 6])),
    });
    expect(result.fills.map((f) => [f.side, toDec(f.mid).toString()])).toEqual([
      ['Buy', '11'],
      ['Sell', '8'],
    ]);
    expect(() => resolveParameters(sma, { short_window: 20, long_window: 5 })).toThrow(
      /smaller than long_window/,
    );
    expect(() => resolveParameters(sma, { short_window: 2.5 })).toThrow(/whole number/);
  });
});

/** An adversary: random intents from a seeded source, at every candle. */
const adversary = (seed: number): StrategyInstance => {
  const random = seededRandom(seed);
  const actions: (IntentAction | null)[] = ['buy', 'sell', 'exit', null, null];
  return {
    onCandle: () =>
      actions[Math.floor(random() * actions.length)]
        ? { action: actions[Math.floor(random() * 5) % 3]! }
        : null,
  };
};
const pricePath = fc.array(fc.integer({ min: 100, max: 100_000 }), { minLength: 2, maxLength: 120 });

describe('backtest properties (fast-check, with an adversary strategy)', () => {
  it('conserves value: cash = initial + closed PnL − cost of open lots; equity = cash + lots at the last close', () => {
    fc.assert(
      fc.property(pricePath, fc.integer(), fc.integer({ min: 1, max: 4 }), (cents, seed, maxPositions) => {
        const closes = cents.map((c) => c / 100);
        const result = run({
          strategy: adversary(seed),
          series: candleSeriesOf(hourly(closes, 0.01)),
          risk: risk({
            amount: new Dec('0.5'),
            maxPositions,
            stopLossPercent: new Dec(5),
            takeProfitPercent: new Dec(5),
          }),
        });
        const closedPnl = result.fills.reduce((sum, f) => sum + (f.pnl ?? 0n), 0n);
        const bought = result.fills.filter((f) => f.side === 'Buy').reduce((s, f) => s + f.quoteAmount, 0n);
        const sold = result.fills.filter((f) => f.side === 'Sell').reduce((s, f) => s + f.quoteAmount, 0n);
        expect(result.finalCash).toBe(10_000_000_000n - bought + sold);
        const openCost = bought - (sold - closedPnl);
        expect(result.finalCash).toBe(10_000_000_000n + closedPnl - openCost);
        const lastClose = new Dec(String(closes.at(-1)));
        const held = fromBaseUnits(500_000_000n * BigInt(result.openLots), 9).times(lastClose);
        expect(result.finalBalance.toString()).toBe(fromBaseUnits(result.finalCash, 6).plus(held).toString());
        expect(result.feesPaid.gte(0)).toBe(true);
        expect(result.finalCash >= 0n).toBe(true);
      }),
    );
  });

  it('cannot extract value from the venue: on a flat market every round trip loses the spread and fee', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 2, max: 80 }),
        fc.integer(),
        (cents, n, seed) => {
          const result = run({
            strategy: adversary(seed),
            series: candleSeriesOf(hourly(Array.from({ length: n }, () => cents / 100))),
            risk: risk({ amount: new Dec('0.25'), maxPositions: 3 }),
          });
          expect(result.finalBalance.lte(result.initialBalance)).toBe(true);
          for (const fill of result.fills) if (fill.pnl !== null) expect(fill.pnl <= 0n).toBe(true);
        },
      ),
    );
  });

  it('no fill uses a later candle: each fill is at its candle’s close, open or a level inside its range', () => {
    fc.assert(
      fc.property(pricePath, fc.integer(), (cents, seed) => {
        const candles = hourly(
          cents.map((c) => c / 100),
          0.02,
        );
        const byTime = new Map(candles.map((c) => [c.time, c]));
        const result = run({
          strategy: adversary(seed),
          series: candleSeriesOf(candles),
          risk: risk({
            amount: new Dec('0.1'),
            maxPositions: 2,
            stopLossPercent: new Dec(1),
            takeProfitPercent: new Dec(1),
          }),
        });
        for (const fill of result.fills) {
          const candle = byTime.get(fill.time)!;
          const mid = toDec(fill.mid);
          expect(mid.gte(String(candle.low)) && mid.lte(String(candle.high))).toBe(true);
          if (fill.entryTime !== null)
            expect(fill.entryTime < fill.time || fill.reason !== 'stop loss').toBe(true);
        }
      }),
    );
  });

  it('a batched strategy (fed in runs, as sandboxed user code is) trades exactly as per candle', () => {
    fc.assert(
      fc.property(pricePath, fc.integer(), fc.integer({ min: 1, max: 3 }), (cents, seed, maxPositions) => {
        const series = candleSeriesOf(
          hourly(
            cents.map((c) => c / 100),
            0.05,
          ),
        );
        const options = {
          series,
          risk: risk({
            amount: new Dec('0.2'),
            maxPositions,
            stopLossPercent: new Dec(1),
            takeProfitPercent: new Dec(2),
          }),
        };
        const batched = (): BatchStrategyInstance => {
          const inner = adversary(seed);
          return {
            batched: true,
            onCandles(from, to, position) {
              for (let i = from; i < to; i += 1) {
                const candle = {
                  time: series.time[i]!,
                  open: series.open[i]!,
                  high: series.high[i]!,
                  low: series.low[i]!,
                  close: series.close[i]!,
                  volume: series.volume[i]!,
                };
                const intent = inner.onCandle(candle, { ...position });
                if (intent) return { index: i, intent };
              }
              return null;
            },
          };
        };
        const text = (value: unknown) =>
          JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
        expect(text(run({ ...options, strategy: batched() }))).toBe(
          text(run({ ...options, strategy: adversary(seed) })),
        );
      }),
    );
  });

  it('tells progress after every `progressEvery` candles, by block and per candle alike', () => {
    const closes = Array.from({ length: 9000 }, (_, i) => 100 + 10 * Math.sin(i / 40));
    const series = candleSeriesOf(hourly(closes));
    const sma = getBuiltInStrategy('sma_crossover')!;
    const parameters = resolveParameters(sma, { short_window: 5, long_window: 20 });
    for (const progressEvery of [1, 7, 4096, 5000, 2.5]) {
      const expected: number[] = [];
      for (let i = 0; i < closes.length; i += 1) if ((i + 1) % progressEvery === 0) expected.push(i + 1);
      const told = (strategy: StrategyInstance) => {
        const done: number[] = [];
        run({
          strategy,
          series,
          progressEvery,
          onProgress: (n, total) => done.push(total === closes.length ? n : -1),
        });
        return done;
      };
      // The built-in runs by blocks of signals; wrapped in a plain onCandle, per candle.
      const blocks = sma.create(parameters, seededRandom(1));
      const perCandle = sma.create(parameters, seededRandom(1));
      expect(told(blocks)).toEqual(expected);
      expect(told({ onCandle: (candle, position) => perCandle.onCandle(candle, position) })).toEqual(
        expected,
      );
    }
  });

  it('marks the same equity points by block as per candle, whatever the candles’ times', () => {
    // Irregular times: gaps of up to a day, candles a hair (a second) before an hour — at or past
    // the period's nextAt, so the run looks there and finds the same period — and on the hour.
    const random = seededRandom(11);
    let time = 1_735_689_600;
    const candles: WireCandle[] = [];
    let price = 150;
    for (let i = 0; i < 6000; i += 1) {
      const open = price;
      price = Number((price * (1 + (random() - 0.5) * 0.01)).toPrecision(8));
      candles.push({
        time,
        open,
        close: price,
        high: Math.max(open, price) * 1.002,
        low: Math.min(open, price) * 0.998,
        volume: 1,
      });
      const r = random();
      time +=
        r < 0.05
          ? 60 * Math.floor(1 + random() * 1440)
          : r < 0.1
            ? Math.max(1, 3600 - (time % 3600) - 1)
            : r < 0.15
              ? 1
              : 60;
    }
    const series = candleSeriesOf(candles);
    const sma = getBuiltInStrategy('sma_crossover')!;
    const parameters = resolveParameters(sma, { short_window: 5, long_window: 20 });
    const text = (strategy: StrategyInstance, equityStepSeconds?: number) =>
      JSON.stringify(
        run({
          strategy,
          series,
          intervalSeconds: 60,
          risk: risk({
            amount: new Dec('0.01'),
            stopLossPercent: new Dec(1),
            takeProfitPercent: new Dec(1.5),
          }),
          ...(equityStepSeconds ? { equityStepSeconds } : {}),
        }),
        (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v),
      );
    for (const step of [undefined, 60, 120, 86_400]) {
      const blocks = sma.create(parameters, seededRandom(1));
      const perCandle = sma.create(parameters, seededRandom(1));
      const byBlock = text(blocks, step);
      expect(byBlock).toBe(
        text({ onCandle: (candle, position) => perCandle.onCandle(candle, position) }, step),
      );
      expect(JSON.parse(byBlock).fills.length).toBeGreaterThan(50);
    }
  });

  it('is deterministic: the same input gives the same result', () => {
    const series = candleSeriesOf(hourly([5, 6, 4, 7, 3, 8, 2, 9]));
    const once = () =>
      JSON.stringify(run({ strategy: adversary(7), series }), (_k, v) =>
        typeof v === 'bigint' ? `${v}n` : v,
      );
    expect(once()).toBe(once());
  });
});

describe('backtest metrics', () => {
  it('reports return, drawdown from the running peak and hourly equity points', () => {
    const result = run({
      strategy: script(['buy', null, null, 'sell']),
      series: candleSeriesOf(hourly([100, 50, 120, 120])),
    });
    expect(result.equityCurve).toHaveLength(5);
    expect(result.equityCurve[0]!.equity.toString()).toBe('10000');
    // Peak 10000 − (cost − 100) at the first close, then the lot at 50: about 0.5 % down.
    expect(result.maxDrawdown.gt(0.49) && result.maxDrawdown.lt(0.51)).toBe(true);
    expect(result.totalReturn.gt(0)).toBe(true);
    expect(result.profitFactor).toBeNull();
    expect(result.exposure.toString()).toBe('75');
  });
});

describe('costs, sizing and the buy-and-hold benchmark (figures computed by hand)', () => {
  const fixed = (feeBps: number, slippageBps: number) => fixedCostVenue({ ...SOL_USDC, feeBps, slippageBps });
  const sized = (mode: Sizing['mode'], value: string) => risk({ sizing: { mode, value: new Dec(value) } });

  it('a fixed fee and slippage are charged on each fill, reported per fill and in total', () => {
    // 1 SOL bought at 100 and sold at 110; fee 10 bps, slippage 20 bps.
    const result = run({
      strategy: script(['buy', null, 'sell']),
      series: candleSeriesOf(hourly([100, 105, 110])),
      venue: fixed(10, 20),
    });
    const [buy, sell] = result.fills;
    // Buy: 100 × 1.002 = 100.2, fee 0.1002, paid 100.3002. Sell: 110 × 0.998 = 109.78, fee 0.10978, got 109.67022.
    expect(buy!.quoteAmount).toBe(100_300_200n);
    expect(toDec(buy!.fee).toString()).toBe('0.1002');
    expect(toDec(buy!.slippage).toString()).toBe('0.2');
    expect(sell!.quoteAmount).toBe(109_670_220n);
    expect(toDec(sell!.fee).toString()).toBe('0.10978');
    expect(toDec(sell!.slippage).toString()).toBe('0.22');
    expect(result.feesPaid.toString()).toBe('0.20998');
    expect(result.slippagePaid.toString()).toBe('0.42');
    expect(result.finalBalance.toString()).toBe('10009.37002');
    // Without costs the same trades make exactly 10.
    const free = run({
      strategy: script(['buy', null, 'sell']),
      series: candleSeriesOf(hourly([100, 105, 110])),
      venue: fixed(0, 0),
    });
    expect(free.finalBalance.toString()).toBe('10010');
    expect(free.feesPaid.toString()).toBe('0');
    expect(free.slippagePaid.toString()).toBe('0');
  });

  it('fixed_base buys the amount, fixed_quote spends at most the value, percent_equity a share of the equity', () => {
    const series = candleSeriesOf(hourly([100, 120, 80]));
    const base = run({
      strategy: script(['buy']),
      series,
      venue: fixed(0, 0),
      risk: sized('fixed_base', '2'),
    });
    expect(base.fills[0]!.baseAmount).toBe(2_000_000_000n);
    const quote = run({
      strategy: script(['buy']),
      series,
      venue: fixed(0, 0),
      risk: sized('fixed_quote', '50'),
    });
    expect(quote.fills[0]!.baseAmount).toBe(500_000_000n);
    expect(quote.fills[0]!.quoteAmount).toBe(50_000_000n);
    // 25 % of 10,000 at 100: 25 SOL; the second buy at 120 is 25 % of 10,000 + 25 × 20 = 10,500: 21.875 SOL.
    const pct = run({
      strategy: script(['buy', 'buy']),
      series,
      venue: fixed(0, 0),
      risk: { ...sized('percent_equity', '25'), maxPositions: 2 },
    });
    expect(pct.fills.map((f) => f.baseAmount)).toEqual([25_000_000_000n, 21_875_000_000n]);
    // Marked at 80: 10,000 − 2,500 − 2,625 + 46.875 × 80 = 8,625.
    expect(pct.finalBalance.toString()).toBe('8625');
    // With a 10 bps fee, 100 % of 10,000 at 100 buys the largest amount whose cost fits: 10,000 / 100.1.
    const all = run({
      strategy: script(['buy']),
      series,
      venue: fixed(10, 0),
      risk: sized('percent_equity', '100'),
    });
    const bought = all.fills[0]!;
    expect(bought.baseAmount).toBe(99_900_099_900n);
    expect(bought.quoteAmount <= 10_000_000_000n).toBe(true);
    // One more base unit would not fit.
    const onceMore = fixed(10, 0).fill('Buy', bought.baseAmount + 1n, { n: 100n, scale: 0 })!;
    expect(onceMore.quoteAmount > 10_000_000_000n).toBe(true);
    // A fixed_quote beyond the cash is refused as unfunded, with what it needed.
    const poor = run({
      strategy: script(['buy']),
      series,
      venue: fixed(0, 0),
      risk: sized('fixed_quote', '20000'),
    });
    expect(poor.fills).toHaveLength(0);
    expect(poor.unfundedBuys).toBe(1);
    expect(poor.firstUnfunded).toEqual({ cost: 20_000_000_000n, cash: 10_000_000_000n });
  });

  it('a budgeted buy is the largest whole base-unit amount whose fill fits, under any venue', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.oneof(
          fc.constant(venue),
          fc
            .tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }))
            .map(([fee, slip]) => fixed(fee, slip)),
        ),
        (budgetCents, midCents, fillVenue) => {
          const budget = BigInt(budgetCents) * 10_000n;
          const mid = { n: BigInt(midCents), scale: 2 };
          const bought = buyWithin(fillVenue, budget, mid, SOL_USDC);
          if (bought) expect(bought.fill.quoteAmount <= budget).toBe(true);
          const next = fillVenue.fill('Buy', (bought?.baseAmount ?? 0n) + 1n, mid);
          expect(next === null || next.quoteAmount > budget).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the benchmark is buy and hold from the first open, marked where the equity is', () => {
    // Opens 100, 100, 80; closes 100, 80, 120: 100 SOL held from 100.
    const series = candleSeriesOf(hourly([100, 80, 120]));
    const free = run({ strategy: script([]), series, venue: fixed(0, 0) });
    expect(free.benchmark.equityCurve.map((p) => [p.time, p.equity.toString()])).toEqual([
      [3600, '10000'],
      [7200, '10000'],
      [10800, '8000'],
      [14400, '12000'],
    ]);
    expect(free.benchmark.equityCurve.map((p) => p.time)).toEqual(free.equityCurve.map((p) => p.time));
    expect(free.benchmark.totalReturn.toString()).toBe('20');
    expect(free.benchmark.maxDrawdown.toString()).toBe('20');
    expect(free.benchmark.baseAmount).toBe(100_000_000_000n);
    // A 10 bps fee: 99.9000999 SOL (its cost is 9,999.99999999 → 10,000.000000 in units), marked at 120.
    const fee = run({ strategy: script([]), series, venue: fixed(10, 0) });
    expect(fee.benchmark.baseAmount).toBe(99_900_099_900n);
    expect(fee.benchmark.cashLeft).toBe(0n);
    expect(fee.benchmark.finalBalance.toString()).toBe('11988.011988');
  });
});

describe('costs properties (fast-check): fees and slippage paid are the value lost', () => {
  const sizing = fc.oneof(
    fc.constant<Sizing | undefined>(undefined),
    fc.integer({ min: 1, max: 300 }).map((v): Sizing => ({ mode: 'fixed_quote', value: new Dec(v) })),
    fc.integer({ min: 1, max: 100 }).map((v): Sizing => ({ mode: 'percent_equity', value: new Dec(v) })),
  );
  const venues = fc.oneof(
    fc.constant(venue),
    fc
      .tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }))
      .map(([fee, slip]) => fixedCostVenue({ ...SOL_USDC, feeBps: fee, slippageBps: slip })),
  );

  it('cash moves by each fill at its mid less its fee and slippage, both ≥ 0; a flat market loses exactly them', () => {
    fc.assert(
      fc.property(
        pricePath,
        fc.integer(),
        fc.integer({ min: 1, max: 4 }),
        sizing,
        venues,
        fc.boolean(),
        (cents, seed, maxPositions, size, fillVenue, flat) => {
          const closes = flat ? cents.map(() => cents[0]! / 100) : cents.map((c) => c / 100);
          const result = run({
            strategy: adversary(seed),
            series: candleSeriesOf(hourly(closes, flat ? 0 : 0.01)),
            venue: fillVenue,
            risk: risk({
              amount: new Dec('0.5'),
              maxPositions,
              ...(size ? { sizing: size } : {}),
              ...(flat ? {} : { stopLossPercent: new Dec(5), takeProfitPercent: new Dec(5) }),
            }),
          });
          let cash: Exact = exactUnits(10_000_000_000n, 6);
          let fees: Exact = ZERO;
          let slippage: Exact = ZERO;
          for (const fill of result.fills) {
            expect(sign(fill.fee)).toBeGreaterThanOrEqual(0);
            expect(sign(fill.slippage)).toBeGreaterThanOrEqual(0);
            const atMid = mul(exactUnits(fill.baseAmount, 9), fill.mid);
            const costs = add(fill.fee, fill.slippage);
            cash = fill.side === 'Buy' ? sub(sub(cash, atMid), costs) : sub(add(cash, atMid), costs);
            fees = add(fees, fill.fee);
            slippage = add(slippage, fill.slippage);
          }
          expect(toDec(cash).toString()).toBe(fromBaseUnits(result.finalCash, 6).toString());
          expect(toDec(fees).toString()).toBe(result.feesPaid.toString());
          expect(toDec(slippage).toString()).toBe(result.slippagePaid.toString());
          expect(result.finalCash >= 0n).toBe(true);
          if (flat) {
            // Every fill at the one price: the value lost is exactly the fees and slippage paid.
            const lost = new Dec(10_000).minus(result.finalBalance);
            expect(lost.toString()).toBe(toDec(add(fees, slippage)).toString());
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
