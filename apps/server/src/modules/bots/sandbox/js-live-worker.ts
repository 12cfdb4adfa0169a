import { parentPort } from 'node:worker_threads';
import { StrategyError, type PositionView, type StrategyParameters } from '@solterm/engine';
import { CANDLE_FIELDS } from './candle-buffer';
import {
  createJsLiveStrategy,
  DEFAULT_SANDBOX_LIMITS,
  type JsLiveStrategy,
  type SandboxLimits,
} from './js-strategy';

// A live JavaScript thread (js-live-thread.ts schedules a few): the live user-code bots given to it
// have a QuickJS context here, so a strategy's compute (up to its per-candle budget) never blocks the
// API's event loop. The host sends one job at a time and waits for its answer; every answer carries
// `ms`, the job's time here (the host's fair share is kept in it).
// { type: 'open', id, code, parameters, seed, limits } → { id, opened } or { id, error };
// { type: 'step', id, request, values } → { request, intent } or { request, error };
// { type: 'warm', id, request, candles, position, sliceMs } → { request, done } or { request, error }:
//   feeds candles (6 numbers each) from the first until they are all fed or the job has taken
//   sliceMs, intents unread (the warm-up before a run's start);
// { type: 'close', id }.
// Before listening it loads QuickJS and runs a strategy once, then says { ready: true }: a thread's
// start (its modules, the wasm compile, the interpreter's first calls) is no user's compute, and
// the host times a job from then (messages wait in the port meanwhile).

type Position = [openLots: number, maxPositions: number, lastEntryPrice: number | null];

type Message =
  | {
      type: 'open';
      id: number;
      code: string;
      parameters: StrategyParameters;
      seed: number;
      limits: SandboxLimits;
    }
  | { type: 'step'; id: number; request: number; values: (number | null)[] }
  | { type: 'warm'; id: number; request: number; candles: number[]; position: Position; sliceMs: number }
  | { type: 'close'; id: number };

const strategies = new Map<number, JsLiveStrategy>();
const errorOf = (error: unknown) => ({
  strategy: error instanceof StrategyError,
  message: error instanceof Error ? error.message : String(error),
});
// A flat position's last entry price travels as null; strategies read NaN, as in backtests.
const positionOf = ([openLots, maxPositions, lastEntryPrice]: Position): PositionView => ({
  openLots,
  maxPositions,
  lastEntryPrice: lastEntryPrice ?? Number.NaN,
});

const idle = await createJsLiveStrategy({
  code: 'function onCandle() { return null; }',
  parameters: {},
  seed: 0,
  limits: DEFAULT_SANDBOX_LIMITS,
});
idle.onCandle({ time: 0, open: 1, high: 1, low: 1, close: 1, volume: 0 }, positionOf([0, 1, null]));
idle.dispose();

parentPort!.on('message', (message: Message) => {
  const started = performance.now();
  const answer = (reply: Record<string, unknown>) =>
    parentPort!.postMessage({ ...reply, ms: performance.now() - started });
  if (message.type === 'open') {
    createJsLiveStrategy(message).then(
      (strategy) => {
        strategies.set(message.id, strategy);
        answer({ id: message.id, opened: true });
      },
      (error: unknown) => answer({ id: message.id, error: errorOf(error) }),
    );
    return;
  }
  if (message.type === 'close') {
    strategies.get(message.id)?.dispose();
    strategies.delete(message.id);
    return;
  }
  const strategy = strategies.get(message.id);
  if (!strategy) {
    answer({ request: message.request, error: { strategy: false, message: 'no such strategy' } });
    return;
  }
  try {
    if (message.type === 'warm') {
      const position = positionOf(message.position);
      const { candles } = message;
      let done = 0;
      while (done * CANDLE_FIELDS < candles.length) {
        const k = done * CANDLE_FIELDS;
        const [time, open, high, low, close, volume] = candles.slice(k, k + CANDLE_FIELDS) as [
          number,
          number,
          number,
          number,
          number,
          number,
        ];
        strategy.onCandle({ time, open, high, low, close, volume }, position);
        done += 1;
        if (performance.now() - started >= message.sliceMs) break;
      }
      answer({ request: message.request, done });
      return;
    }
    const [time, open, high, low, close, volume, openLots, maxPositions, lastEntryPrice] = message.values as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number | null,
    ];
    const intent = strategy.onCandle(
      { time, open, high, low, close, volume },
      positionOf([openLots, maxPositions, lastEntryPrice]),
    );
    answer({ request: message.request, intent: intent ?? null });
  } catch (error) {
    answer({ request: message.request, error: errorOf(error) });
  }
});

parentPort!.postMessage({ ready: true });
