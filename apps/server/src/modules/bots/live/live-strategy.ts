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

/** Where live user code runs: JavaScript in one worker thread, Python in a process per run. */
export interface LiveSandboxes {
  readonly js: JsLiveThread;
  readonly python: PythonSandbox;
}

/** Candles a user's code is warmed with before its run starts (a built-in declares its own). */
const CODE_WARM_UP = 200;
/**
 * Time user code may spend on one candle of a live run: JavaScript's deadline inside QuickJS (its
 * thread serves every live JavaScript bot of the process, one step at a time), Python's per round
 * trip to its own process.
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
  | { readonly kind: 'async'; step(candle: CandleView, position: PositionView): Promise<unknown> }
) & {
  /** Closed candles fed before the run's first, so indicators are ready when it starts. */
  readonly warmUp: number;
  dispose(): void;
};

export async function createLiveStrategy(
  spec: ResolvedStrategy['spec'],
  seed: number,
  sandboxes: LiveSandboxes,
  /** Whose run it is (a user's share of the live Python processes is bounded). */
  userId: string,
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
      userId,
      code: spec.code,
      parameters: spec.parameters,
      seed,
      candleMs: LIVE_PYTHON_CANDLE_MS,
    });
    return { kind: 'async', step: sandboxed.step, warmUp: CODE_WARM_UP, dispose: () => sandboxed.dispose() };
  }
  const sandboxed = await sandboxes.js.open({
    code: spec.code,
    parameters: spec.parameters,
    seed,
    limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: LIVE_MEMORY_BYTES, cpuMs: LIVE_CANDLE_CPU_MS },
  });
  return { kind: 'async', step: sandboxed.step, warmUp: CODE_WARM_UP, dispose: () => sandboxed.dispose() };
}
