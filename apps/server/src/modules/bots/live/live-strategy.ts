import {
  getBuiltInStrategy,
  resolveParameters,
  seededRandom,
  type CandleView,
  type PositionView,
  type StrategyInstance,
} from '@solterm/engine';
import type { ResolvedStrategy } from '../bot-strategy';
import type { JsLiveThread } from '../sandbox/js-live-thread';
import { DEFAULT_SANDBOX_LIMITS } from '../sandbox/js-strategy';
import type { PythonSandbox } from '../sandbox/python-sandbox';

/** Where live user code runs: JavaScript in a few worker threads, Python in a process per run. */
export interface LiveSandboxes {
  readonly js: JsLiveThread;
  readonly python: PythonSandbox;
}

/** Candles a user's code is warmed with before its run starts (a built-in declares its own). */
const CODE_WARM_UP = 200;
/**
 * Time user code may spend on one candle of a live run: JavaScript's compute budget inside QuickJS
 * (its own compute only: its thread serves the live JavaScript bots of several users, one job at a
 * time), Python's per round trip to its own process.
 */
const LIVE_CANDLE_CPU_MS = 50;
const LIVE_PYTHON_CANDLE_MS = 1000;
/** A live JavaScript strategy's heap: it stays in memory for the whole run. */
const LIVE_MEMORY_BYTES = 16 * 1024 * 1024;

/**
 * A bot's strategy for a live run. `sync`: a built-in — a StrategyInstance the runtime calls itself.
 * `async`: user code in its sandbox (JavaScript in the live thread, Python in its process) — each
 * candle is a round trip, so the runner feeds it (`step`) and applies the intent through the
 * runtime's `act`, in the order the runtime's own `onCandle` does.
 */
export type LiveStrategy = (
  | { readonly kind: 'sync'; readonly strategy: StrategyInstance }
  | {
      readonly kind: 'async';
      step(candle: CandleView, position: PositionView): Promise<unknown>;
      /** Candles before the run's start: fed in order, the position unchanged, intents unread. */
      warm(candles: readonly CandleView[], position: PositionView): Promise<void>;
    }
) & {
  /** Closed candles fed before the run's first, so indicators are ready when it starts. */
  readonly warmUp: number;
  dispose(): void;
};

/**
 * `owner`: the user whose bot it is — live JavaScript threads are shared fairly among users, and a
 * user's share of the live Python processes is bounded.
 */
export async function createLiveStrategy(
  spec: ResolvedStrategy['spec'],
  seed: number,
  owner: string,
  sandboxes: LiveSandboxes,
): Promise<LiveStrategy> {
  if (spec.kind === 'builtin') {
    const builtIn = getBuiltInStrategy(spec.type)!;
    const parameters = resolveParameters(builtIn, spec.parameters);
    return {
      kind: 'sync',
      strategy: builtIn.create(parameters, seededRandom(seed)),
      warmUp: builtIn.warmUp(parameters),
      dispose: () => {},
    };
  }
  if (spec.kind === 'python') {
    const sandboxed = await sandboxes.python.startLive({
      userId: owner,
      code: spec.code,
      parameters: spec.parameters,
      seed,
      candleMs: LIVE_PYTHON_CANDLE_MS,
    });
    return {
      kind: 'async',
      step: sandboxed.step,
      async warm(candles, position) {
        for (const candle of candles) await sandboxed.step(candle, position);
      },
      warmUp: CODE_WARM_UP,
      dispose: () => sandboxed.dispose(),
    };
  }
  const sandboxed = await sandboxes.js.open({
    owner,
    code: spec.code,
    parameters: spec.parameters,
    seed,
    limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: LIVE_MEMORY_BYTES, cpuMs: LIVE_CANDLE_CPU_MS },
  });
  return {
    kind: 'async',
    step: sandboxed.step,
    // In slices of the thread's time, not a round trip per candle.
    warm: sandboxed.warm,
    warmUp: CODE_WARM_UP,
    dispose: () => sandboxed.dispose(),
  };
}
