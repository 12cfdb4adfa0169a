import { StrategyRuntime, type BatchStrategyInstance } from '@solterm/engine';
import { backtestRules, type BacktestRulesWire } from '../backtest/backtest-rules';
import { CANDLE_BYTES, CANDLE_FIELDS } from './candle-buffer';
import type { PythonBatchStrategy } from './python-strategy';

/** Bound of one intent's JSON (the server ends a process whose frame passes its own bound). */
export const MAX_INTENT_CHARS = 16 * 1024;
/**
 * Intents' JSON one answer carries at most before it ends early (the request's remaining candles
 * are asked again): with one more intent of MAX_INTENT_CHARS, an answer stays within 64 KiB.
 */
const ANSWER_BUDGET_CHARS = 32 * 1024;

/** Stands in for the strategy in the mirror's runtime, which is driven through `act`. */
const DRIVEN: BatchStrategyInstance = {
  batched: true,
  onCandles() {
    throw new TypeError('the mirror drives its runtime through act');
  },
};

/**
 * The sandbox process's copy of the server's backtest runtime (the engine's StrategyRuntime under the
 * job's rules, applying the strategy's intents and the stop loss and take profit candle by candle as
 * the engine's backtest does), so that the strategy sees its position move without a round trip to
 * the server per intent. The server trusts none of it: it replays the intents in its own engine and
 * computes every fill and figure; the copy only decides what the strategy's `ctx` says, exactly
 * what the server's runtime would (the same code, the same rules: backtest-rules.ts).
 */
export function createBacktestMirror(strategy: PythonBatchStrategy, rules: BacktestRulesWire) {
  const runtime = new StrategyRuntime({ strategy: DRIVEN, ...backtestRules(rules) });
  /** Candles before `next` are done (their risk closes and intents applied). */
  let next = 0;
  /** Candles before `fed` have been given to the strategy. */
  let fed = 0;
  let pending: { index: number; intent: unknown } | null = null;
  /** Why the copy stopped (an intent the runtime refused): the server's replay stops there too. */
  let broken: string | null = null;

  return {
    /**
     * Runs the strategy over candles [from, to) (`candles`, exactly those), until its intents fill an
     * answer: the end of the candles done (`upto`) and each intent's candle and JSON, in order.
     */
    advance(from: number, to: number, candles: Uint8Array): { upto: number; intents: string } {
      if (broken !== null) throw new Error(broken);
      if (from !== next) throw new Error(`candles from ${from} were asked, ${next} expected`);
      const count = to - from;
      const doubles = new Float64Array(count * CANDLE_FIELDS);
      new Uint8Array(doubles.buffer).set(candles.subarray(0, count * CANDLE_BYTES));
      const high = new Float64Array(count);
      const low = new Float64Array(count);
      for (let j = 0; j < count; j += 1) {
        high[j] = doubles[j * CANDLE_FIELDS + 2]!;
        low[j] = doubles[j * CANDLE_FIELDS + 3]!;
      }
      strategy.load(from, candles);
      const intents: string[] = [];
      let chars = 0;
      let i = from;
      for (; i < to; i += 1) {
        if (i >= fed && chars >= ANSWER_BUDGET_CHARS) break;
        const k = (i - from) * CANDLE_FIELDS;
        const time = doubles[k]!;
        if (runtime.lots.length > 0)
          runtime.closeAtRisk(time, doubles[k + 1]!, high[i - from]!, low[i - from]!);
        if (i >= fed) {
          const limit = from + runtime.nextRiskIndex({ high, low }, i + 1 - from, count);
          const hit = strategy.onCandles(i, limit, runtime.positionView);
          fed = hit ? hit.index + 1 : limit;
          if (hit) {
            if (hit.json.length > MAX_INTENT_CHARS) {
              throw new Error(`on_candle returned more than ${MAX_INTENT_CHARS} characters`);
            }
            intents.push(`[${hit.index},${hit.json}]`);
            chars += hit.json.length + 16;
            pending = { index: hit.index, intent: JSON.parse(hit.json) as unknown };
          }
        }
        if (pending?.index === i) {
          const { intent } = pending;
          pending = null;
          try {
            runtime.act(intent, time, doubles[k + 4]!);
          } catch (error) {
            broken = error instanceof Error ? error.message : String(error);
            i += 1;
            break;
          }
        }
      }
      // The copy needs the position only, never the trade list.
      runtime.fills.length = 0;
      next = i;
      return { upto: i, intents: `[${intents.join(',')}]` };
    },
  };
}
