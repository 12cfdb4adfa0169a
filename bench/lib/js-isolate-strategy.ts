import { createRequire } from 'node:module';
import {
  StrategyError,
  type BatchStrategyInstance,
  type CandleSeries,
  type StrategyParameters,
} from '@solterm/engine';
import { packCandles } from '../../apps/server/src/modules/bots/sandbox/candle-buffer';
import {
  DEFAULT_SANDBOX_LIMITS,
  DRIVER,
  PRELUDE,
  type SandboxLimits,
} from '../../apps/server/src/modules/bots/sandbox/js-strategy';

/**
 * PROTOTYPE (bench only, not wired into the server): user JavaScript as a batched strategy in a V8
 * isolate of its own (isolated-vm): separate heap capped at `memoryBytes`, a wall-time limit per call,
 * no host objects (only numbers and strings cross: the candles are copied in once as an ArrayBuffer,
 * the intent comes back as a JSON string). The same prelude and driver as the QuickJS sandbox.
 * isolated-vm is optional: `loadIsolatedVm()` returns undefined when it is not installed or does not
 * load (Node 20 needs `--no-node-snapshot`), and callers keep QuickJS.
 */

interface Ivm {
  Isolate: new (options: { memoryLimit: number }) => IvmIsolate;
  ExternalCopy: new (value: ArrayBuffer) => { copyInto(options?: { release?: boolean }): unknown };
}
interface IvmIsolate {
  createContextSync(): IvmContext;
  compileScriptSync(
    code: string,
    options?: { filename?: string },
  ): { runSync(context: IvmContext, options: { timeout: number }): unknown; release(): void };
  dispose(): void;
  readonly isDisposed: boolean;
}
interface IvmContext {
  global: {
    setSync(name: string, value: unknown): void;
    getSync(name: string, options?: { reference?: boolean }): unknown;
    derefInto(): unknown;
  };
  release(): void;
}
interface IvmReference {
  applySync(receiver: undefined, args: unknown[], options: { timeout: number }): unknown;
  release(): void;
}

let cached: Ivm | null | undefined;
/** isolated-vm when installed and loadable in this process, else undefined. */
export function loadIsolatedVm(): Ivm | undefined {
  if (cached === undefined) {
    try {
      cached = createRequire(import.meta.url)('isolated-vm') as Ivm;
      // Loading can succeed while creating an isolate crashes without --no-node-snapshot (Node 20).
      if (
        !process.execArgv.includes('--no-node-snapshot') &&
        !(process.env.NODE_OPTIONS ?? '').includes('--no-node-snapshot')
      )
        cached = null;
    } catch {
      cached = null;
    }
  }
  return cached ?? undefined;
}

export function createIsolateStrategy(
  ivm: Ivm,
  options: {
    code: string;
    series: CandleSeries;
    parameters: StrategyParameters;
    seed: number;
    limits?: SandboxLimits;
  },
): BatchStrategyInstance & { dispose(): void } {
  const limits = options.limits ?? DEFAULT_SANDBOX_LIMITS;
  const candles = packCandles(options.series);
  const isolate = new ivm.Isolate({
    memoryLimit: Math.max(8, Math.ceil((limits.memoryBytes + candles.byteLength * 2) / 2 ** 20)),
  });
  const started = performance.now();
  const remaining = () => Math.max(1, Math.ceil(limits.cpuMs - (performance.now() - started)));
  const fail = (error: unknown): never => {
    const message = error instanceof Error ? error.message : String(error);
    throw new StrategyError(message.slice(0, 500));
  };
  let run: IvmReference;
  let context: IvmContext;
  try {
    context = isolate.createContextSync();
    context.global.setSync('__candles', new ivm.ExternalCopy(candles.buffer).copyInto({ release: true }));
    context.global.setSync('__seed', options.seed >>> 0);
    context.global.setSync('__paramsJson', JSON.stringify(options.parameters));
    for (const [source, filename] of [
      [PRELUDE, 'prelude.js'],
      [options.code, 'strategy.js'],
      [DRIVER, 'driver.js'],
    ] as const) {
      const script = isolate.compileScriptSync(source, { filename });
      script.runSync(context, { timeout: remaining() });
      script.release();
    }
    run = context.global.getSync('__run', { reference: true }) as IvmReference;
  } catch (error) {
    isolate.dispose();
    return fail(error);
  }
  return {
    batched: true,
    onCandles(from, to, position) {
      let index: number;
      try {
        index = run.applySync(
          undefined,
          [from, to, position.openLots, position.maxPositions, position.lastEntryPrice],
          { timeout: remaining() },
        ) as number;
        if (typeof index !== 'number') throw new Error('driver returned a non-number');
        if (index < 0) return null;
        const json = context.global.getSync('__intent');
        if (typeof json !== 'string') throw new Error('intent is not a string');
        return { index, intent: JSON.parse(json) as unknown };
      } catch (error) {
        if (error instanceof StrategyError) throw error;
        return fail(error);
      }
    },
    dispose() {
      if (!isolate.isDisposed) isolate.dispose();
    },
  };
}
