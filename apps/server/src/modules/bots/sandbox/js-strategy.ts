import {
  getQuickJS,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';
import {
  StrategyError,
  type BatchStrategyInstance,
  type CandleSeries,
  type OrderIntent,
  type StrategyInstance,
  type StrategyParameters,
} from '@solterm/engine';
import { CANDLE_FIELDS, packCandles } from './candle-buffer';

/** What one run of user code may use. */
export interface SandboxLimits {
  /** Heap of the sandbox, besides the candles it is given. */
  readonly memoryBytes: number;
  /** Time the whole run may compute (the sandbox is single-threaded: wall time is its CPU time). */
  readonly cpuMs: number;
  readonly stackBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryBytes: 64 * 1024 * 1024,
  cpuMs: 15_000,
  stackBytes: 512 * 1024,
};

/** The file name user code runs under, so errors name its lines (`strategy.js:12`). */
const FILE = 'strategy.js';

let quickJs: Promise<QuickJSWASMModule> | undefined;
/** The QuickJS engine (WebAssembly), loaded once per thread. */
export function loadQuickJs(): Promise<QuickJSWASMModule> {
  return (quickJs ??= getQuickJS());
}

// Runs before user code: seeded Math.random (a backtest is reproducible), no clock, frozen params,
// and the candles as a Float64Array view (time, open, high, low, close, volume per candle).
const PRELUDE = `
(function (seed) {
  let state = seed >>> 0;
  Math.random = function () {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})(__seed);
Date.now = function () { throw new Error('Date.now is not available to strategies: use candle.time'); };
globalThis.params = Object.freeze(JSON.parse(__paramsJson));
const __view = new Float64Array(__candles);
`;

const DRIVER = `
globalThis.__run = function (from, to, openLots, maxPositions, lastEntryPrice) {
  if (typeof onCandle !== 'function') throw new TypeError('the strategy must define function onCandle(candle, ctx)');
  const ctx = Object.freeze({ openLots, maxPositions, lastEntryPrice, params });
  for (let i = from; i < to; i += 1) {
    const k = i * ${CANDLE_FIELDS};
    const intent = onCandle(
      { time: __view[k], open: __view[k + 1], high: __view[k + 2], low: __view[k + 3], close: __view[k + 4], volume: __view[k + 5] },
      ctx,
    );
    if (intent !== null && intent !== undefined) {
      globalThis.__intent = JSON.stringify(intent);
      return i;
    }
  }
  return -1;
};
`;

/** A sandbox failure as the user reads it: the error, and the line of their code where it can tell. */
function errorOf(vm: QuickJSContext, handle: QuickJSHandle, limits: SandboxLimits): StrategyError {
  const dumped = vm.dump(handle) as { name?: string; message?: string; stack?: string } | string;
  handle.dispose();
  const name = typeof dumped === 'object' ? (dumped.name ?? 'Error') : 'Error';
  const message = typeof dumped === 'object' ? (dumped.message ?? String(dumped)) : String(dumped);
  if (name === 'InternalError' && message === 'interrupted') {
    return new StrategyError(`The strategy exceeded its CPU time limit of ${limits.cpuMs / 1000} s`);
  }
  if (message === 'out of memory' || /out of memory/i.test(message)) {
    return new StrategyError(
      `The strategy exceeded its memory limit of ${limits.memoryBytes / 1024 / 1024} MB`,
    );
  }
  const stack = typeof dumped === 'object' ? (dumped.stack ?? '') : '';
  const line = new RegExp(`${FILE.replace('.', '\\.')}:(\\d+)`).exec(stack)?.[1];
  return new StrategyError(`${name}: ${message}${line ? ` (strategy.js line ${line})` : ''}`);
}

/**
 * A QuickJS context with the prelude, the user's code and a driver loaded, under its memory and
 * stack caps (the CPU deadline is armed by the caller, before the code loads and per call after).
 *
 * @throws StrategyError when the code does not load.
 */
async function openContext(options: {
  code: string;
  driver: string;
  candles: ArrayBuffer;
  seed: number;
  parameters: StrategyParameters;
  limits: SandboxLimits;
  memoryBytes: number;
}): Promise<{ vm: QuickJSContext; runtime: QuickJSRuntime; dispose(): void }> {
  const QuickJS = await loadQuickJs();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(options.memoryBytes);
  runtime.setMaxStackSize(options.limits.stackBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + options.limits.cpuMs));
  const vm = runtime.newContext();
  const dispose = () => {
    vm.dispose();
    runtime.dispose();
  };
  try {
    const setGlobal = (name: string, handle: QuickJSHandle) => {
      vm.setProp(vm.global, name, handle);
      handle.dispose();
    };
    setGlobal('__candles', vm.newArrayBuffer(options.candles));
    setGlobal('__seed', vm.newNumber(options.seed >>> 0));
    setGlobal('__paramsJson', vm.newString(JSON.stringify(options.parameters)));
    for (const [source, file] of [
      [PRELUDE, 'prelude.js'],
      [options.code, FILE],
      [options.driver, 'driver.js'],
    ] as const) {
      const loaded = vm.evalCode(source, file);
      if (loaded.error) throw errorOf(vm, loaded.error, options.limits);
      loaded.value.dispose();
    }
  } catch (error) {
    dispose();
    throw error;
  }
  return { vm, runtime, dispose };
}

/**
 * User JavaScript as a batched strategy, in QuickJS (WebAssembly): no host objects (no require,
 * fetch, process or timers), a memory cap, a CPU deadline over the whole run and a stack cap. The
 * code defines `function onCandle(candle, ctx)` returning null or `{ action: 'buy' | 'sell' | 'exit',
 * reason? }`; `ctx` holds openLots, maxPositions, lastEntryPrice and params. Call `dispose` when done.
 *
 * @throws StrategyError when the code does not load (syntax error, an exception at top level).
 */
export async function createJsStrategy(options: {
  code: string;
  series: CandleSeries;
  parameters: StrategyParameters;
  seed: number;
  limits?: SandboxLimits;
}): Promise<BatchStrategyInstance & { dispose(): void }> {
  const limits = options.limits ?? DEFAULT_SANDBOX_LIMITS;
  const candles = packCandles(options.series);
  // One CPU deadline, armed as the code loads, covers the whole run.
  const { vm, dispose } = await openContext({
    code: options.code,
    driver: DRIVER,
    candles: candles.buffer,
    seed: options.seed,
    parameters: options.parameters,
    limits,
    memoryBytes: limits.memoryBytes + candles.byteLength * 2,
  });
  const run = vm.getProp(vm.global, '__run');
  return {
    batched: true,
    onCandles(from, to, position) {
      const args = [from, to, position.openLots, position.maxPositions, position.lastEntryPrice].map((n) =>
        vm.newNumber(n),
      );
      const result = vm.callFunction(run, vm.undefined, ...args);
      for (const arg of args) arg.dispose();
      if (result.error) throw errorOf(vm, result.error, limits);
      const index = vm.getNumber(result.value);
      result.value.dispose();
      if (index < 0) return null;
      const text = vm.getProp(vm.global, '__intent');
      const json = vm.getString(text);
      text.dispose();
      return { index, intent: JSON.parse(json) as unknown };
    },
    dispose() {
      run.dispose();
      dispose();
    },
  };
}

const LIVE_DRIVER = `
globalThis.__step = function (time, open, high, low, close, volume, openLots, maxPositions, lastEntryPrice) {
  if (typeof onCandle !== 'function') throw new TypeError('the strategy must define function onCandle(candle, ctx)');
  const intent = onCandle(
    { time, open, high, low, close, volume },
    Object.freeze({ openLots, maxPositions, lastEntryPrice, params }),
  );
  return intent === null || intent === undefined ? '' : JSON.stringify(intent);
};
`;

/** The deadline for loading a live strategy's code, however short its per-candle one. */
const LIVE_LOAD_CPU_MS = 1_000;

/**
 * User JavaScript as a per-candle strategy for a live bot: the same sandbox and protocol as in
 * backtests, kept alive across candles (its state is the strategy's), each candle with its own CPU
 * deadline. Call `dispose` when the run ends.
 *
 * @throws StrategyError when the code does not load.
 */
export async function createJsLiveStrategy(options: {
  code: string;
  parameters: StrategyParameters;
  seed: number;
  limits: SandboxLimits;
}): Promise<StrategyInstance & { dispose(): void }> {
  const { limits } = options;
  const { vm, runtime, dispose } = await openContext({
    code: options.code,
    driver: LIVE_DRIVER,
    candles: new ArrayBuffer(CANDLE_FIELDS * 8),
    seed: options.seed,
    parameters: options.parameters,
    // Loading (prelude, user code, driver) gets its own, longer deadline: the deadline is wall
    // time, and a fresh thread's first compile on a busy server can take longer than a candle's.
    limits: { ...limits, cpuMs: Math.max(limits.cpuMs, LIVE_LOAD_CPU_MS) },
    memoryBytes: limits.memoryBytes,
  });
  const armDeadline = () =>
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.cpuMs));
  const step = vm.getProp(vm.global, '__step');
  return {
    onCandle(candle, position) {
      armDeadline();
      const args = [
        candle.time,
        candle.open,
        candle.high,
        candle.low,
        candle.close,
        candle.volume,
        position.openLots,
        position.maxPositions,
        position.lastEntryPrice,
      ].map((n) => vm.newNumber(n));
      const result = vm.callFunction(step, vm.undefined, ...args);
      for (const arg of args) arg.dispose();
      if (result.error) throw errorOf(vm, result.error, limits);
      const json = vm.getString(result.value);
      result.value.dispose();
      return json === '' ? null : (JSON.parse(json) as OrderIntent);
    },
    dispose() {
      step.dispose();
      dispose();
    },
  };
}
