import { afterAll, describe, expect, it } from 'vitest';
import {
  getBuiltInStrategy,
  PYTHON_TEMPLATES,
  resolveParameters,
  seededRandom,
  type PythonTemplate,
} from '@solterm/engine';
import pino from 'pino';
import { computeBacktest, type BacktestJob } from '../backtest-job';
import { createPythonSandbox } from './python-sandbox';
import { hourlyTestCandles } from './test-candles';

const candles = hourlyTestCandles();

const job = (code: string, overrides: Partial<BacktestJob> = {}): BacktestJob => ({
  strategy: { kind: 'python', code, parameters: { short_window: 5, long_window: 20 } },
  risk: { amount: '1', maxPositions: 1, stopLossPercent: '2', takeProfitPercent: '3' },
  candles,
  intervalSeconds: 3600,
  interval: '1H',
  symbol: 'SOL/USDC',
  baseDecimals: 9,
  quoteDecimals: 6,
  quoteUsdPrice: '1',
  initialCash: '10000000000',
  seed: 1,
  cpuMs: 4000,
  ...overrides,
});

const sandbox = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 4000 });
afterAll(() => sandbox.close());
const failure = (code: string) =>
  sandbox.run(job(code)).then(
    () => null,
    (error: Error) => error.message,
  );

describe('user Python in the Pyodide sandbox process', () => {
  it.each(Object.keys(PYTHON_TEMPLATES) as PythonTemplate[])(
    'the %s template trades exactly as its built-in with the default parameters',
    async (type) => {
      const builtIn = getBuiltInStrategy(type)!;
      const pythonJob = job(PYTHON_TEMPLATES[type], {
        strategy: { kind: 'python', code: PYTHON_TEMPLATES[type], parameters: {} },
      });
      const expected = await computeBacktest(pythonJob, () =>
        Promise.resolve({
          strategy: builtIn.create(resolveParameters(builtIn, {}), seededRandom(1)),
          dispose: () => {},
        }),
      );
      const actual = await sandbox.run(pythonJob);
      expect(expected.trades.length).toBeGreaterThan(4);
      expect(actual).toEqual(expected);
    },
    30_000,
  );

  it('stops hostile code with a clear message naming the line, and runs the next user clean', async () => {
    const [loop, system, escape, network, files, recursion, syntax, intent, clock, module] = await [
      'def on_candle(c, ctx):\n    while True:\n        pass',
      'import os\n\ndef on_candle(c, ctx):\n    os.system("touch /tmp/solterm-pwned")',
      'import gc\nfound = [o for o in gc.get_objects() if type(o).__name__.startswith("Js") and hasattr(o, "constructor")]\nfor o in found:\n    o.constructor.constructor("return process")()\ndef on_candle(c, ctx):\n    return {"action": "moon", "reason": str(len(found))}',
      'import socket\ndef on_candle(c, ctx):\n    return None',
      'def on_candle(c, ctx):\n    return {"action": "buy", "reason": open("/etc/passwd").read()[:40]}',
      'def f(n):\n    return f(n + 1) + 1\n\ndef on_candle(c, ctx):\n    return f(0)',
      'def on_candle(c, ctx)\n    return None',
      'def on_candle(c, ctx):\n    return {"action": "moon"}',
      'import time\ndef on_candle(c, ctx):\n    return None if time.time() else None',
      // A module of an uploaded .zip, embedded as the web bundles it (strategy-zip.ts).
      'import sys as _sys, types as _types\n_m = _types.ModuleType("helpers")\n_sys.modules["helpers"] = _m\nexec(compile("def ratio(a, b):\\n    return a / b\\n", "helpers.py", "exec"), _m.__dict__)\nimport helpers\ndef on_candle(c, ctx):\n    return helpers.ratio(c.close, 0)',
    ].reduce<Promise<(string | null)[]>>(
      async (done, code) => [...(await done), await failure(code)],
      Promise.resolve([]),
    );
    expect(loop).toBe('The strategy exceeded its CPU time limit of 4 s');
    expect(system).toBe(
      'PermissionError: strategies cannot run programs, open files or reach the network (strategy.py line 4)',
    );
    // No JavaScript object is left to Python, and none could make code from a string anyway.
    // Either no JavaScript object is left for Python to find (the run gets as far as the bad intent),
    // or the one it finds cannot make code from a string.
    expect(escape).toMatch(/"reason":"0"|EvalError: Code generation from strings disallowed/);
    expect(network).toMatch(/^ModuleNotFoundError|^ImportError/);
    expect(files).toMatch(/FileNotFoundError.*strategy\.py line 2/);
    expect(recursion).toMatch(/^RecursionError: .*strategy\.py line 2/);
    expect(syntax).toMatch(/^SyntaxError: .*strategy\.py line 1/);
    expect(intent).toMatch(/"action":"moon"/);
    expect(clock).toMatch(/the clock is not available to strategies.*line 3/);
    expect(module).toBe('ZeroDivisionError: division by zero (helpers.py line 2)');
    const { existsSync } = await import('node:fs');
    expect(existsSync('/tmp/solterm-pwned')).toBe(false);
  }, 120_000);

  it('kills a run past its memory limit', async () => {
    const message = await failure(
      'blocks = []\ndef on_candle(c, ctx):\n    blocks.append(bytearray(64 * 1024 * 1024))',
    );
    expect(message).toMatch(/memory limit of 512 MB|MemoryError/);
  }, 60_000);

  it('runs a live bot a candle at a time, stops one past its candle time, and refuses past the cap', async () => {
    const live = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 4000, maxLive: 1 });
    try {
      const counter = await live.startLive({
        code: 'seen = 0\ndef on_candle(c, ctx):\n    global seen\n    seen += 1\n    if seen == 2:\n        return {"action": "buy", "reason": f"second at {c.close}"}\n    if seen == 3:\n        while True:\n            pass',
        parameters: {},
        seed: 1,
        candleMs: 500,
      });
      const position = { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN };
      const busy = await live
        .startLive({ code: '', parameters: {}, seed: 1, candleMs: 500 })
        .catch((e: unknown) => e);
      expect(busy).toMatchObject({
        code: 'BOTS__PYTHON_BUSY',
        message:
          'Too many Python bots are running on this server. Please try again later, or stop one of yours.',
      });
      expect(await counter.step(candles[0]!, position)).toBeNull();
      expect(await counter.step(candles[1]!, position)).toEqual({
        action: 'buy',
        reason: `second at ${candles[1]!.close}`,
      });
      await expect(counter.step(candles[2]!, position)).rejects.toThrow(
        'The strategy exceeded its CPU time limit of 0.5 s',
      );
      await expect(counter.step(candles[3]!, position)).rejects.toThrow('CPU time limit');
    } finally {
      live.close();
    }
  }, 60_000);
});
