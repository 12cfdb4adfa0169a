import { describe, expect, it } from 'vitest';
import {
  candleSeriesOf,
  Dec,
  getBuiltInStrategy,
  JAVASCRIPT_TEMPLATES,
  resolveParameters,
  rfqVenue,
  runBacktest,
  seededRandom,
  StrategyError,
  type BatchStrategyInstance,
  type JavaScriptTemplate,
  type StrategyInstance,
} from '@solterm/engine';
import { createJsStrategy, type SandboxLimits } from './js-strategy';
import { hourlyTestCandles } from './test-candles';

const candles = hourlyTestCandles();
const series = candleSeriesOf(candles);
const backtest = (strategy: StrategyInstance | BatchStrategyInstance) =>
  runBacktest({
    strategy,
    risk: {
      amount: new Dec('1'),
      maxPositions: 1,
      stopLossPercent: new Dec(2),
      takeProfitPercent: new Dec(3),
    },
    series,
    intervalSeconds: 3600,
    venue: rfqVenue({ baseDecimals: 9, quoteDecimals: 6, quoteUsdPrice: new Dec(1) }),
    baseDecimals: 9,
    quoteDecimals: 6,
    initialCash: 10_000_000_000n,
  });
const text = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
const limits: SandboxLimits = { memoryBytes: 16 * 1024 * 1024, cpuMs: 1500, stackBytes: 256 * 1024 };
const js = (code: string) => createJsStrategy({ code, series, parameters: {}, seed: 1, limits });
const failure = async (code: string) => {
  let strategy: Awaited<ReturnType<typeof js>>;
  try {
    strategy = await js(code);
  } catch (error) {
    return error as Error;
  }
  try {
    backtest(strategy);
    return null;
  } catch (error) {
    return error as Error;
  } finally {
    strategy.dispose();
  }
};

describe('user JavaScript in the QuickJS sandbox', () => {
  it('the SMA crossover template trades exactly as the built-in', async () => {
    const parameters = { short_window: 5, long_window: 20 };
    const sandboxed = await createJsStrategy({
      code: JAVASCRIPT_TEMPLATES.sma_crossover,
      series,
      parameters,
      seed: 1,
    });
    const builtIn = getBuiltInStrategy('sma_crossover')!;
    const expected = backtest(builtIn.create(resolveParameters(builtIn, parameters), seededRandom(1)));
    const actual = backtest(sandboxed);
    sandboxed.dispose();
    expect(expected.fills.length).toBeGreaterThan(20);
    expect(text(actual)).toBe(text(expected));
  });

  it.each(Object.keys(JAVASCRIPT_TEMPLATES) as JavaScriptTemplate[])(
    'the %s template trades exactly as its built-in with the default parameters',
    async (type) => {
      const sandboxed = await createJsStrategy({
        code: JAVASCRIPT_TEMPLATES[type],
        series,
        parameters: {},
        seed: 1,
      });
      const builtIn = getBuiltInStrategy(type)!;
      const expected = backtest(builtIn.create(resolveParameters(builtIn, {}), seededRandom(1)));
      const actual = backtest(sandboxed);
      sandboxed.dispose();
      expect(expected.fills.length).toBeGreaterThan(4);
      expect(text(actual)).toBe(text(expected));
    },
  );

  it('stops hostile code inside its limits with a clear message naming the line', async () => {
    expect((await failure('function onCandle() { while (true) {} }'))?.message).toBe(
      'The strategy exceeded its CPU time limit of 1.5 s',
    );
    expect(
      (await failure('const a = []; function onCandle() { for (;;) a.push(new Array(1e5).fill(1)); }'))
        ?.message,
    ).toMatch(/memory limit of 16 MB|out of memory/);
    expect(
      (await failure('function f() { return f() + 1; }\nfunction onCandle() { return f(); }'))?.message,
    ).toMatch(/stack overflow|Maximum call stack/i);
    expect((await failure('function onCandle() { return fetch("http://example.com"); }'))?.message).toBe(
      "ReferenceError: 'fetch' is not defined (strategy.js line 1)",
    );
    expect((await failure('function onCandle() { return require("fs"); }'))?.message).toMatch(
      /'require' is not defined/,
    );
    expect((await failure('function onCandle() {\n  return process.exit(1);\n}'))?.message).toBe(
      "ReferenceError: 'process' is not defined (strategy.js line 2)",
    );
    expect(
      (await failure('function onCandle(c) {\n\n  throw new Error("boom at " + c.time);\n}'))?.message,
    ).toBe('Error: boom at 3600 (strategy.js line 3)');
    expect((await failure('function onCandle( {'))?.message).toMatch(/^SyntaxError: .*strategy\.js line 1/);
    expect((await failure('function onCandle() { return { action: "moon" }; }'))?.message).toMatch(
      /onCandle returned \{"action":"moon"\}/,
    );
    expect((await failure('const x = 1;'))?.message).toMatch(/must define function onCandle/);
    expect((await failure('function onCandle(c) { return Date.now() > 0 ? null : null; }'))?.message).toMatch(
      /Date\.now is not available/,
    );
    for (const error of [await failure('function onCandle() { while (true) {} }')])
      expect(error).toBeInstanceOf(StrategyError);
    // Thirteen runs one after another, two of them spending the 1.5 s CPU limit: ~5 s on an idle
    // machine, 29 s alone at load 17 and past the default 30 s beside the rest of the suite there.
  }, 90_000);

  it('sees only the JavaScript built-ins: no host object leaks into globalThis', async () => {
    const code = `const names = Object.getOwnPropertyNames(globalThis).filter((n) => !n.startsWith('__'));
      function onCandle() { return { action: 'buy', reason: names.sort().join(',') }; }`;
    const strategy = await js(code);
    const hit = strategy.onCandles(0, 1, { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN });
    strategy.dispose();
    const names = (hit!.intent as { reason: string }).reason.split(',');
    for (const hostName of [
      'process',
      'require',
      'fetch',
      'setTimeout',
      'console',
      'Buffer',
      'module',
      'os',
    ]) {
      expect(names).not.toContain(hostName);
    }
    expect(names).toContain('Math');
  });

  it('gives strategies no clock (Date.now, Date(), new Date() throw) and dates of given times', async () => {
    for (const [expression, message] of [
      ['Date.now()', /Date\.now is not available/],
      ['Date()', /the current date is not available/],
      ['new Date()', /the current date is not available/],
      ['new (new Date(0).constructor)()', /the current date is not available/],
      ['new Date(0).constructor.now()', /Date\.now is not available/],
      ['Reflect.construct(Date, [])', /the current date is not available/],
      ['new (class extends Date { constructor() { super(); } })()', /the current date is not available/],
    ] as const) {
      expect(
        (await failure(`function onCandle() { return { action: 'buy', reason: String(${expression}) }; }`))
          ?.message,
        expression,
      ).toMatch(message);
    }
    const strategy = await js(`function onCandle(c) {
      const d = new Date(c.time * 1000);
      const parts = [d.toISOString(), Date.UTC(2026, 0, 2), Date.parse('2026-01-02T00:00:00Z'), d instanceof Date];
      return { action: 'buy', reason: parts.join(' ') };
    }`);
    const hit = strategy.onCandles(0, 1, { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN });
    strategy.dispose();
    expect((hit!.intent as { reason: string }).reason).toBe(
      '1970-01-01T01:00:00.000Z 1767312000000 1767312000000 true',
    );
  });

  it('counts only the strategy’s own compute against its budget, not the host’s between calls', async () => {
    const strategy = await createJsStrategy({
      code: 'function onCandle() { return null; }',
      series,
      parameters: {},
      seed: 1,
      limits: { ...limits, cpuMs: 100 },
    });
    for (let k = 0; k < 3; k += 1) {
      // The host computes between calls (the engine, or the thread's other work): 60 ms each time.
      const busyUntil = performance.now() + 60;
      while (performance.now() < busyUntil);
      expect(
        strategy.onCandles(k, k + 1, { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN }),
      ).toBeNull();
    }
    strategy.dispose();
  });

  it('clips a huge error message to 4 KiB, keeping the line it names', async () => {
    const message = (await failure("function onCandle() {\n  throw new Error('x'.repeat(1e6));\n}"))!.message;
    expect(message.length).toBeLessThanOrEqual(4096);
    expect(message).toMatch(/^Error: x+ … \(\d+ more characters\) \(strategy\.js line 2\)$/);
  });
});
