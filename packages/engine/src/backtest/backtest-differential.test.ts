import { describe, expect, it } from 'vitest';
import { candleSeriesOf, type CandleSeries } from '../market/candle-series';
import type { WireCandle } from '../market/candle';
import { Dec } from '../money/decimal';
import { getBuiltInStrategy, resolveParameters, BUILT_IN_STRATEGY_TYPES } from '../strategy/built-ins';
import { seededRandom } from '../strategy/random';
import { fixedCostVenue, rfqVenue, type VenuePort } from '../strategy/runtime';
import type {
  BatchStrategyInstance,
  IntentAction,
  RiskRules,
  SizingMode,
  StrategyInstance,
} from '../strategy/strategy';
import { runBacktest, runBacktestAsync, type BacktestInput } from './backtest';
import { runBacktest as frozenRunBacktest } from './fixtures/engine-v1/backtest';
import {
  getBuiltInStrategy as frozenBuiltIn,
  resolveParameters as frozenParameters,
} from './fixtures/engine-v1/built-ins';
import {
  fixedCostVenue as frozenFixedCostVenue,
  rfqVenue as frozenRfqVenue,
} from './fixtures/engine-v1/venue';

// The backtest was rewritten for speed (issue #28: integer money in the loop, equity and metrics
// from integer state). fixtures/engine-v1 is the engine as it was before, frozen, with its own
// built-in strategies: both run the same seeded candles, strategies and configurations (all seven
// built-ins, per-candle and batched user-like strategies, RFQ and fixed costs, every sizing mode,
// stops, several lots, equity steps, decimals and price scales) and must give exactly the same
// result: every fill (amounts, mids, fees, slippage, reasons, PnL), the equity curves, the
// benchmark and every metric.

/** A result as comparable JSON (bigints and decimals as their exact text). */
function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'bigint' ? `${v}n` : v instanceof Dec ? `dec:${v.toString()}` : v,
    ),
  ) as unknown;
}

/** Kinds of candles: volatile minutes, hourly cents, micro prices, large prices, gaps; the bench's. */
type Market = 'minutes' | 'hours' | 'micro' | 'large' | 'gappy' | 'bench';
const MARKETS: readonly Market[] = ['minutes', 'hours', 'micro', 'large', 'gappy'];

function candlesOf(market: Market, count: number, seed: number): { candles: WireCandle[]; interval: number } {
  const random = seededRandom(seed);
  const interval = market === 'hours' || market === 'micro' || market === 'large' ? 3600 : 60;
  const start = market === 'micro' ? 0.000012345 : market === 'large' ? 65_432.1 : 150;
  const sigma =
    market === 'bench'
      ? 0.75 / Math.sqrt(525_600)
      : market === 'hours'
        ? 0.02
        : market === 'micro'
          ? 0.01
          : 0.003;
  const quantise = (x: number) =>
    market === 'hours' ? Math.round(x * 100) / 100 : Number(x.toPrecision(market === 'micro' ? 6 : 10));
  const candles: WireCandle[] = [];
  let price = start;
  let time = 1_735_689_600;
  for (let i = 0; i < count; i += 1) {
    const open = price;
    const gauss = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    price = Math.max(quantise(price * Math.exp(sigma * gauss)), quantise(start / 100));
    const wick = price * sigma * random();
    candles.push({
      time,
      open,
      high: quantise(Math.max(open, price) + wick),
      low: Math.max(quantise(Math.min(open, price) - wick), quantise(start / 200)),
      close: price,
      volume: 10_000,
    });
    time += interval * (market === 'gappy' && random() < 0.05 ? 1 + Math.floor(random() * 120) : 1);
  }
  return { candles, interval };
}

/** A strategy as user code may be: random intents with odd reasons. */
function userLike(seed: number): StrategyInstance {
  const random = seededRandom(seed);
  const actions: IntentAction[] = ['buy', 'sell', 'exit'];
  return {
    onCandle() {
      if (random() < 0.8) return null;
      const action = actions[Math.floor(random() * 3)]!;
      const r = random();
      return r < 0.3 ? { action } : { action, reason: r < 0.6 ? `why ${r}` : 'x'.repeat(100) };
    },
  };
}

/** A per-candle strategy fed in runs, as sandboxed user code is. */
function batchedOf(inner: StrategyInstance, series: CandleSeries): BatchStrategyInstance {
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
}

interface Case {
  readonly market: Market;
  readonly seed: number;
  readonly count: number;
  /** A built-in's type, or 'user' for random intents. */
  readonly strategy: string;
  readonly batched: boolean;
  readonly costs: 'venue' | 'venue-capped' | 'fixed' | 'fixed-fractional';
  readonly sizing: SizingMode;
  readonly stops: 'none' | 'wide' | 'tight' | 'stop-only';
  readonly maxPositions: number;
  readonly equityStepSeconds: number | undefined;
  readonly decimals: { baseDecimals: number; quoteDecimals: number };
  /** fixed_base: base tokens a lot (default: about 10 % of the cash at the start price). */
  readonly amount?: string;
}

const pick = <T>(random: () => number, options: readonly T[]): T =>
  options[Math.floor(random() * options.length)]!;

const TIMEOUT_MS = 120_000;

function randomCases(seed: number, n: number): Case[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({
    market: pick(random, MARKETS),
    seed: seed * 1000 + i,
    count: 500 + Math.floor(random() * 2500),
    strategy: pick(random, [...BUILT_IN_STRATEGY_TYPES, 'user']),
    batched: random() < 0.3,
    costs: pick(random, ['venue', 'venue-capped', 'fixed', 'fixed-fractional'] as const),
    sizing: pick(random, ['fixed_base', 'fixed_quote', 'percent_equity'] as const),
    stops: pick(random, ['none', 'wide', 'tight', 'stop-only'] as const),
    maxPositions: pick(random, [1, 1, 3]),
    equityStepSeconds: pick(random, [undefined, undefined, 60, 86_400, 7200]),
    decimals: pick(random, [
      { baseDecimals: 9, quoteDecimals: 6 },
      { baseDecimals: 6, quoteDecimals: 9 },
      { baseDecimals: 8, quoteDecimals: 2 },
    ]),
  }));
}

/** Each engine's venue for a cost model (both built from the same figures). */
function venuesOf(c: Case): [VenuePort, VenuePort] {
  const { decimals } = c;
  switch (c.costs) {
    case 'venue':
      return [
        rfqVenue({ ...decimals, quoteUsdPrice: new Dec(1) }),
        frozenRfqVenue({ ...decimals, quoteUsdPrice: new Dec(1) }),
      ];
    case 'venue-capped': {
      // A steep impact that reaches its cap on larger fills, a fractional spread, a quote worth < $1.
      const pricing = { halfSpreadBps: 2.5, venueFeeBps: 7, impactBpsPerUsd10k: 400, maxImpactBps: 30 };
      const quoteUsdPrice = new Dec('0.99871');
      return [
        rfqVenue({ ...decimals, quoteUsdPrice, pricing }),
        frozenRfqVenue({ ...decimals, quoteUsdPrice, pricing }),
      ];
    }
    case 'fixed':
      return [
        fixedCostVenue({ ...decimals, feeBps: 10, slippageBps: 5 }),
        frozenFixedCostVenue({ ...decimals, feeBps: 10, slippageBps: 5 }),
      ];
    case 'fixed-fractional':
      return [
        fixedCostVenue({ ...decimals, feeBps: 0.75, slippageBps: 0 }),
        frozenFixedCostVenue({ ...decimals, feeBps: 0.75, slippageBps: 0 }),
      ];
  }
}

function riskOf(c: Case, start: number): RiskRules {
  const sizingValue = {
    // About 10 % of the cash a lot at the start price.
    fixed_base: new Dec(c.amount ?? (1000 / start).toPrecision(3)),
    fixed_quote: new Dec('1000.5'),
    percent_equity: new Dec(c.maxPositions === 1 ? '99.5' : '12.25'),
  }[c.sizing];
  const stops = {
    none: [null, null],
    wide: [new Dec(2), new Dec(3)],
    tight: [new Dec('0.25'), new Dec('0.4')],
    'stop-only': [new Dec('1.5'), null],
  }[c.stops];
  return {
    amount: sizingValue,
    sizing: { mode: c.sizing, value: sizingValue },
    maxPositions: c.maxPositions,
    stopLossPercent: stops[0]!,
    takeProfitPercent: stops[1]!,
  };
}

function strategiesOf(c: Case, series: CandleSeries): [BacktestInput['strategy'], BacktestInput['strategy']] {
  const make = (fresh: () => StrategyInstance) => (c.batched ? batchedOf(fresh(), series) : fresh());
  if (c.strategy === 'user') return [make(() => userLike(c.seed)), make(() => userLike(c.seed))];
  const now = getBuiltInStrategy(c.strategy)!;
  const then = frozenBuiltIn(c.strategy)!;
  return [
    make(() => now.create(resolveParameters(now, {}), seededRandom(c.seed))),
    make(() => then.create(frozenParameters(then, {}), seededRandom(c.seed))),
  ];
}

function runBoth(c: Case) {
  const { candles, interval } = candlesOf(c.market, c.count, c.seed);
  const series = candleSeriesOf(candles);
  const [venue, frozenVenue] = venuesOf(c);
  const [strategy, frozenStrategy] = strategiesOf(c, series);
  const common = {
    risk: riskOf(c, candles[0]!.open),
    series,
    intervalSeconds: interval,
    ...c.decimals,
    initialCash: 10_000n * 10n ** BigInt(c.decimals.quoteDecimals),
    ...(c.equityStepSeconds ? { equityStepSeconds: c.equityStepSeconds } : {}),
  };
  return {
    now: runBacktest({ ...common, venue, strategy }),
    then: frozenRunBacktest({ ...common, venue: frozenVenue, strategy: frozenStrategy }),
  };
}

describe('the backtest against the frozen engine (engine-v1)', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(
      `gives exactly the same fills, equity curves and metrics: 25 random configurations, seed ${seed}`,
      () => {
        for (const c of randomCases(seed, 25)) {
          const { now, then } = runBoth(c);
          expect(plain(now), JSON.stringify(c)).toEqual(plain(then));
        }
      },
      TIMEOUT_MS,
    );
  }

  it(
    'every built-in with every sizing and cost model, per candle and batched',
    () => {
      let seed = 77;
      for (const strategy of BUILT_IN_STRATEGY_TYPES) {
        for (const sizing of ['fixed_base', 'fixed_quote', 'percent_equity'] as const) {
          for (const costs of ['venue', 'fixed'] as const) {
            const c: Case = {
              market: 'minutes',
              seed: (seed += 1),
              count: 1500,
              strategy,
              batched: seed % 2 === 0,
              costs,
              sizing,
              stops: 'wide',
              maxPositions: strategy === 'dca' || strategy === 'grid' ? 3 : 1,
              equityStepSeconds: undefined,
              decimals: { baseDecimals: 9, quoteDecimals: 6 },
            };
            const { now, then } = runBoth(c);
            expect(plain(now), JSON.stringify(c)).toEqual(plain(then));
          }
        }
      }
    },
    TIMEOUT_MS,
  );

  it(
    'the bench’s run over a quarter (sma_crossover 5/20, the bench’s minutes, stops 2/3 %, RFQ costs)',
    () => {
      const c: Case = {
        market: 'bench',
        seed: 2026,
        count: 131_400,
        strategy: 'sma_crossover',
        batched: false,
        costs: 'venue',
        sizing: 'fixed_base',
        stops: 'wide',
        maxPositions: 1,
        equityStepSeconds: undefined,
        decimals: { baseDecimals: 9, quoteDecimals: 6 },
        amount: '0.0001',
      };
      const { now, then } = runBoth(c);
      expect(now.fills.length).toBeGreaterThan(5000);
      expect(plain(now)).toEqual(plain(then));
    },
    TIMEOUT_MS,
  );

  it(
    'the asynchronous driver (user Python) gives the frozen engine’s result too',
    async () => {
      const c: Case = { ...randomCases(9, 1)[0]!, strategy: 'user', batched: true, count: 3000 };
      const { candles, interval } = candlesOf(c.market, c.count, c.seed);
      const series = candleSeriesOf(candles);
      const [venue, frozenVenue] = venuesOf(c);
      const inner = batchedOf(userLike(c.seed), series);
      const common = {
        risk: riskOf(c, candles[0]!.open),
        series,
        intervalSeconds: interval,
        ...c.decimals,
        initialCash: 10_000n * 10n ** BigInt(c.decimals.quoteDecimals),
      };
      const now = await runBacktestAsync({
        ...common,
        venue,
        strategy: {
          batched: true,
          onCandles: async (from, to, position) => inner.onCandles(from, to, position),
        },
      });
      const then = frozenRunBacktest({
        ...common,
        venue: frozenVenue,
        strategy: batchedOf(userLike(c.seed), series),
      });
      expect(plain(now)).toEqual(plain(then));
    },
    TIMEOUT_MS,
  );
});
