import { describe, expect, it } from 'vitest';
import { candleSeriesOf } from '../market/candle-series';
import { BUILT_IN_STRATEGY_TYPES, getBuiltInStrategy, resolveParameters } from './built-ins';
import { seededRandom } from './random';
import type { OrderIntent, PositionView, SignalStrategyInstance, StrategyInstance } from './strategy';
import { seriesCandle } from './series-candle';
import { BUY_SIGNAL, EXIT_SIGNAL } from './strategy';

// A signal strategy's two faces: `signals` (the backtest's block loop, gated by the runtime) and
// `onCandle` (live bots, batched drivers) must give the same intent on every candle, whatever the
// position, and advance the same state.

function walk(count: number, seed: number) {
  const random = seededRandom(seed);
  let price = 100;
  return candleSeriesOf(
    Array.from({ length: count }, (_, i) => {
      const open = price;
      price = Number((price * (1 + (random() - 0.5) * 0.02)).toPrecision(8));
      return {
        time: 1_700_000_000 + i * 60,
        open,
        high: Math.max(open, price),
        low: Math.min(open, price),
        close: price,
        volume: 1,
      };
    }),
  );
}

const isSignal = (s: StrategyInstance): s is SignalStrategyInstance => 'signals' in s;

describe('signal strategies', () => {
  const signalTypes = BUILT_IN_STRATEGY_TYPES.filter((type) => {
    const builtIn = getBuiltInStrategy(type)!;
    return isSignal(builtIn.create(resolveParameters(builtIn, {}), seededRandom(1)));
  });

  it('are the crossovers, RSI reversion, the scalper and the Bollinger breakout', () => {
    expect([...signalTypes].sort()).toEqual(
      ['bollinger_breakout', 'ema_crossover', 'rsi_reversion', 'scalper', 'sma_crossover'].sort(),
    );
  });

  it('give through signals exactly the intents onCandle gives, for every position', () => {
    const series = walk(3000, 5);
    const positions: PositionView[] = [
      { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN },
      { openLots: 1, maxPositions: 1, lastEntryPrice: 100 },
      { openLots: 1, maxPositions: 3, lastEntryPrice: 100 },
    ];
    for (const type of signalTypes) {
      const builtIn = getBuiltInStrategy(type)!;
      const parameters = resolveParameters(builtIn, {});
      const byCandle = positions.map(() => builtIn.create(parameters, seededRandom(1)));
      const bySignal = builtIn.create(parameters, seededRandom(1)) as SignalStrategyInstance;
      const out = new Uint8Array(700);
      let seen = 0;
      const mismatches: string[] = [];
      const { view: candle, at: candleAt } = seriesCandle(series);
      for (let from = 0; from < series.length; from += out.length) {
        const to = Math.min(series.length, from + out.length);
        bySignal.signals(series, from, to, out);
        for (let i = from; i < to; i += 1) {
          candleAt.i = i;
          const signal = out[i - from]!;
          if (signal !== 0) seen += 1;
          positions.forEach((position, k) => {
            let gated: OrderIntent | null = null;
            if (signal & BUY_SIGNAL && position.openLots < position.maxPositions) gated = bySignal.buyIntent;
            else if (signal & EXIT_SIGNAL && position.openLots > 0) gated = bySignal.exitIntent;
            const intent = byCandle[k]!.onCandle(candle, position) ?? null;
            if (intent?.action !== gated?.action || intent?.reason !== gated?.reason)
              mismatches.push(`${type} at ${i}, ${position.openLots} lots`);
          });
        }
      }
      expect(mismatches).toEqual([]);
      expect(seen, type).toBeGreaterThan(10);
    }
  });
});
