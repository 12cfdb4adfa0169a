import {
  getQuickJS,
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
import { MESSAGE_MAX } from '../../../lib/clip-message';
import { CANDLE_FIELDS, packCandles } from './candle-buffer';
import { threadCpuMs } from './thread-cpu';

/** What one run of user code may use. */
export interface SandboxLimits {
  /** Heap of the sandbox, besides the candles it is given. */
  readonly memoryBytes: number;
  /**
   * Time the run's own code may compute: counted only while it evaluates (a backtest: over the
   * whole run; a live run: per candle), never while the run waits for its turn or for the host.
   */
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

// Runs before user code: seeded Math.random (a backtest is reproducible), no clock (Date.now, Date()
// and new Date() throw; new Date(time) and the rest of Date's arithmetic on given times stay — QuickJS
// has no other clock: no performance, timers or Atomics), frozen params, and the candles as a
// Float64Array view (time, open, high, low, close, volume per candle).
export const PRELUDE = `
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
(function (RealDate) {
  const now = function () { throw new Error('Date.now is not available to strategies: use candle.time'); };
  const Date = function Date(...args) {
    if (new.target === undefined || args.length === 0) {
      throw new Error('the current date is not available to strategies: use candle.time (new Date(candle.time * 1000))');
    }
    return Reflect.construct(RealDate, args, new.target);
  };
  Object.defineProperty(Date, 'prototype', { value: RealDate.prototype });
  Object.defineProperty(RealDate.prototype, 'constructor', { value: Date, writable: true, configurable: true });
  Date.UTC = RealDate.UTC;
  Date.parse = RealDate.parse;
  Date.now = now;
  globalThis.Date = Date;
})(Date);
globalThis.params = Object.freeze(JSON.parse(__paramsJson));
const __view = new Float64Array(__candles);
`;

/** Loaded after the user's code: code without its entry point does not load (a clear error at save). */
const ENTRY_CHECK = `if (typeof onCandle !== 'function') throw new TypeError('the strategy must define function onCandle(candle, ctx)');`;

export const DRIVER = `
${ENTRY_CHECK}
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

/** Compute the sandbox may spend reading a thrown value (its getters are the user's code). */
const ERROR_READ_MS = 50;

/** A thrown value's name, message and stack, each clipped inside the sandbox before it is copied out. */
type ErrorReader = (thrown: QuickJSHandle) => { name: string; message: string; stack: string };

/** `slice`: String.prototype.slice as it was before user code ran, bound to be called on a string. */
function errorReader(vm: QuickJSContext, slice: QuickJSHandle, meter: ComputeMeter): ErrorReader {
  const text = (value: QuickJSHandle, max: number): string => {
    const type = vm.typeof(value);
    if (type === 'string') {
      const lengthHandle = vm.getProp(value, 'length');
      const length = vm.getNumber(lengthHandle);
      lengthHandle.dispose();
      if (length <= max) return vm.getString(value);
      const bounds = [vm.newNumber(0), vm.newNumber(max)];
      const cut = vm.callFunction(slice, vm.undefined, value, ...bounds);
      for (const bound of bounds) bound.dispose();
      if (cut.error) {
        cut.error.dispose();
        return '';
      }
      const kept = vm.getString(cut.value);
      cut.value.dispose();
      return `${kept} … (${length - max} more characters)`;
    }
    return ['number', 'boolean', 'bigint', 'undefined'].includes(type) ? String(vm.dump(value)) : '';
  };
  const property = (thrown: QuickJSHandle, key: string, max: number): string => {
    try {
      const value = vm.getProp(thrown, key);
      try {
        return text(value, max);
      } finally {
        value.dispose();
      }
    } catch {
      return '';
    }
  };
  return (thrown) => {
    meter.budget(ERROR_READ_MS);
    return meter.run(() => {
      if (vm.typeof(thrown) !== 'object')
        return { name: 'Error', message: text(thrown, MESSAGE_MAX - 200), stack: '' };
      return {
        name: property(thrown, 'name', 100) || 'Error',
        message: property(thrown, 'message', MESSAGE_MAX - 200),
        stack: property(thrown, 'stack', MESSAGE_MAX),
      };
    });
  };
}

/** A sandbox failure as the user reads it: the error, and the line of their code where it can tell. */
function errorOf(read: ErrorReader, thrown: QuickJSHandle, limits: SandboxLimits): StrategyError {
  const { name, message, stack } = read(thrown);
  thrown.dispose();
  if (name === 'InternalError' && message === 'interrupted') {
    return new StrategyError(`The strategy exceeded its CPU time limit of ${limits.cpuMs / 1000} s`);
  }
  if (/out of memory/i.test(message)) {
    return new StrategyError(
      `The strategy exceeded its memory limit of ${limits.memoryBytes / 1024 / 1024} MB`,
    );
  }
  const line = new RegExp(`${FILE.replace('.', '\\.')}:(\\d+)`).exec(stack)?.[1];
  return new StrategyError(`${name}: ${message}${line ? ` (strategy.js line ${line})` : ''}`);
}

/**
 * A run's own compute: counted only while its code evaluates (`run`), and checked by QuickJS's
 * interrupt handler, which QuickJS polls as the code runs (loops, calls). The thread evaluates one
 * run at a time, so the time inside `run` is this run's compute, never time spent waiting for its
 * turn, in the host or in another run.
 *
 * The budget is CPU time: on a busy machine the thread may be off a CPU for part of a run, and that
 * wall time is not the run's doing. The handler looks at the wall clock on each poll (cheap) and,
 * only once wall time passes the budget, at the thread's CPU time; a run is stopped when its CPU
 * time passes the budget, or its wall time passes the budget by DESCHEDULED_GRACE_MS (a machine
 * that busy fails it as before), or the CPU time cannot be read (wall time alone, as before).
 */
export interface ComputeMeter {
  /** Starts a fresh budget of `ms` (a live run's per-candle one). */
  budget(ms: number): void;
  /** Evaluates the run's code, its time counted against the budget (QuickJS interrupts it past). */
  run<T>(evaluate: () => T): T;
}

/**
 * How much longer than its budget a run may take in wall time while its thread was off a CPU.
 * Below the live thread's STUCK_GRACE_MS, which takes an unanswering thread for stuck.
 */
export const DESCHEDULED_GRACE_MS = 2_000;

export function computeMeter(runtime: QuickJSRuntime, ms: number): ComputeMeter {
  let limitMs = ms;
  let usedMs = 0;
  let usedCpuMs = 0;
  let since = Number.NaN;
  let cpuSince = Number.NaN;
  /** The wall time used at which the CPU time is next looked at. */
  let lookAtMs = ms;
  runtime.setInterruptHandler(() => {
    const wallMs = usedMs + (performance.now() - since);
    // (NaN outside `run`: the host's own evaluations are not metered)
    if (!(wallMs > lookAtMs)) return false;
    const cpuMs = usedCpuMs + (threadCpuMs() - cpuSince);
    if (!(cpuMs <= limitMs) || wallMs > limitMs + DESCHEDULED_GRACE_MS) return true;
    // Off a CPU for part of it: it may use the rest of its budget, which takes at least as long.
    lookAtMs = wallMs + (limitMs - cpuMs);
    return false;
  });
  return {
    budget(next) {
      limitMs = next;
      lookAtMs = next;
      usedMs = 0;
      usedCpuMs = 0;
    },
    run(evaluate) {
      cpuSince = threadCpuMs();
      since = performance.now();
      try {
        return evaluate();
      } finally {
        usedMs += performance.now() - since;
        usedCpuMs += threadCpuMs() - cpuSince;
      }
    },
  };
}

/**
 * A QuickJS context with the prelude, the user's code and a driver loaded, under its memory and
 * stack caps and a compute budget of `limits.cpuMs` from the load on (the caller may start fresh
 * budgets after).
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
}): Promise<{ vm: QuickJSContext; meter: ComputeMeter; read: ErrorReader; dispose(): void }> {
  const QuickJS = await loadQuickJs();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(options.memoryBytes);
  runtime.setMaxStackSize(options.limits.stackBytes);
  const meter = computeMeter(runtime, options.limits.cpuMs);
  const vm = runtime.newContext();
  // Taken before user code runs (which may replace String.prototype.slice).
  const slice = vm.unwrapResult(vm.evalCode('Function.prototype.call.bind(String.prototype.slice)'));
  const read = errorReader(vm, slice, meter);
  const dispose = () => {
    slice.dispose();
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
      const loaded = meter.run(() => vm.evalCode(source, file));
      if (loaded.error) throw errorOf(read, loaded.error, options.limits);
      loaded.value.dispose();
    }
  } catch (error) {
    dispose();
    throw error;
  }
  return { vm, meter, read, dispose };
}

/**
 * User JavaScript as a batched strategy, in QuickJS (WebAssembly): no host objects (no require,
 * fetch, process, timers or clock), a memory cap, a compute budget over the whole run and a stack cap. The
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
  // One compute budget, from the load on, covers the whole run (the engine's time between calls
  // is not the strategy's).
  const { vm, meter, read, dispose } = await openContext({
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
      const result = meter.run(() => vm.callFunction(run, vm.undefined, ...args));
      for (const arg of args) arg.dispose();
      if (result.error) throw errorOf(read, result.error, limits);
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
${ENTRY_CHECK}
globalThis.__step = function (time, open, high, low, close, volume, openLots, maxPositions, lastEntryPrice) {
  if (typeof onCandle !== 'function') throw new TypeError('the strategy must define function onCandle(candle, ctx)');
  const intent = onCandle(
    { time, open, high, low, close, volume },
    Object.freeze({ openLots, maxPositions, lastEntryPrice, params }),
  );
  return intent === null || intent === undefined ? '' : JSON.stringify(intent);
};
`;

/**
 * The compute budget for loading a live strategy's code (prelude, user code, driver), however short
 * its per-candle one: a template loads in a few ms. It bounds, with the per-candle budget, how long
 * one item of the live thread can keep another user's waiting.
 */
export const LIVE_LOAD_CPU_MS = 250;

/** A live strategy in its sandbox: per-candle calls, each under its own compute budget. */
export interface JsLiveStrategy extends StrategyInstance {
  dispose(): void;
}

/**
 * User JavaScript as a per-candle strategy for a live bot: the same sandbox and protocol as in
 * backtests, kept alive across candles (its state is the strategy's), each candle with a budget of
 * `limits.cpuMs` of its own compute. Call `dispose` when the run ends.
 *
 * @throws StrategyError when the code does not load.
 */
export async function createJsLiveStrategy(options: {
  code: string;
  parameters: StrategyParameters;
  seed: number;
  limits: SandboxLimits;
}): Promise<JsLiveStrategy> {
  const { limits } = options;
  const { vm, meter, read, dispose } = await openContext({
    code: options.code,
    driver: LIVE_DRIVER,
    candles: new ArrayBuffer(CANDLE_FIELDS * 8),
    seed: options.seed,
    parameters: options.parameters,
    limits: { ...limits, cpuMs: Math.max(limits.cpuMs, LIVE_LOAD_CPU_MS) },
    memoryBytes: limits.memoryBytes,
  });
  const step = vm.getProp(vm.global, '__step');
  return {
    onCandle(candle, position) {
      meter.budget(limits.cpuMs);
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
      const result = meter.run(() => vm.callFunction(step, vm.undefined, ...args));
      for (const arg of args) arg.dispose();
      if (result.error) throw errorOf(read, result.error, limits);
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
