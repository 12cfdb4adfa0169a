import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import {
  getBuiltInStrategy,
  PYTHON_TEMPLATES,
  resolveParameters,
  seededRandom,
  type PythonTemplate,
} from '@solterm/engine';
import pino from 'pino';
import { computeBacktest, type BacktestJob } from '../backtest/backtest-job';
import {
  createPythonSandbox,
  MAX_STRATEGY_MESSAGE_CHARS,
  PYTHON_MEMORY_LIMIT_MB,
  SANDBOX_WINDOW,
} from './python-sandbox';
import { PYTHON_SNAPSHOT_FILE, pythonSnapshot } from './python-snapshot';
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
// For runs that test something other than the time limit, several at once on a busy machine.
const roomy = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 60_000 });
afterAll(() => {
  sandbox.close();
  roomy.close();
});
const failure = (code: string) =>
  sandbox.run(job(code)).then(
    () => null,
    (error: Error) => error.message,
  );

describe('user Python in the Pyodide sandbox process', () => {
  it('starts from a memory snapshot of Pyodide, kept per Pyodide version beside it in node_modules', async () => {
    // Every run below restores it (the walls are applied after the restore, and the hostile cases
    // below show they hold).
    expect(await pythonSnapshot()).toBe(PYTHON_SNAPSHOT_FILE);
    expect(PYTHON_SNAPSHOT_FILE).toMatch(
      /node_modules\/\.cache\/solterm\/pyodide-[\d.]+-[0-9a-f]{12}\.snapshot$/,
    );
    expect(statSync(PYTHON_SNAPSHOT_FILE).size).toBeGreaterThan(10 * 1024 * 1024);
  });

  // Side by side: each run is a process of its own.
  it.concurrent.for(Object.keys(PYTHON_TEMPLATES) as PythonTemplate[])(
    'the %s template trades exactly as its built-in with the default parameters',
    // A process takes ~0.5 s to restore Pyodide on an idle machine, ten times that on a busy one.
    { timeout: 120_000 },
    async (type, { expect }) => {
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
      const actual = await roomy.run(pythonJob);
      expect(expected.trades.length).toBeGreaterThan(4);
      expect(actual).toEqual(expected);
    },
  );

  it('stops hostile code with a clear message naming the line, and runs the next user clean', async () => {
    // All at once: every run has a process of its own, so one user's hostile code never meets the
    // next's. Only the endless loop is about the time limit; the others run under a roomy one, so ten
    // processes sharing two busy cores cannot turn their own error into a timeout.
    const roomyFailure = (code: string) =>
      roomy.run(job(code)).then(
        () => null,
        (error: Error) => error.message,
      );
    const [loop, system, escape, network, files, recursion, syntax, intent, clock, module] =
      await Promise.all([
        failure('def on_candle(c, ctx):\n    while True:\n        pass'),
        ...[
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
        ].map(roomyFailure),
      ]);
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
  }, 300_000);

  it('kills a run past its memory limit', async () => {
    // The roomy time limit: the allocations cannot reach it first on a busy machine.
    const message = await roomy
      .run(job('blocks = []\ndef on_candle(c, ctx):\n    blocks.append(bytearray(64 * 1024 * 1024))'))
      .then(
        () => null,
        (error: Error) => error.message,
      );
    expect(message).toMatch(/memory limit of 512 MB|MemoryError/);
  }, 180_000);

  it('runs a live bot a candle at a time, stops one past its candle time, and refuses past the cap', async () => {
    const live = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 4000, maxLive: 1 });
    try {
      const counter = await live.startLive({
        userId: 'user-a',
        code: 'seen = 0\ndef on_candle(c, ctx):\n    global seen\n    seen += 1\n    if seen == 2:\n        return {"action": "buy", "reason": f"second at {c.close}"}\n    if seen == 3:\n        while True:\n            pass',
        parameters: {},
        seed: 1,
        candleMs: 500,
      });
      const position = { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN };
      const busy = await live
        .startLive({ userId: 'user-b', code: '', parameters: {}, seed: 1, candleMs: 500 })
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

// What a strategy reached before: Pyodide's internals (sys.modules['pyodide_js._api']), their stdout
// writer (a NodeWriter once stdout is reset), and from its class a writer of the process's fd 3, the
// server's channel. `payload` is written there as the strategy loads.
const throughApi = (payload: Buffer) => `
import sys
_api = sys.modules['pyodide_js._api'].public_api
_api.setStdout()
_stream = _api.FS.constructor.new()
_stream.fd = 3
_writer = _api.FS.streams[1].devops.constructor.new(_stream)
with open('/tmp/payload', 'wb') as _file:
    _file.write(bytes.fromhex('${payload.toString('hex')}'))
_writer.write(_api.FS.readFile('/tmp/payload'))
def on_candle(c, ctx):
    return None
`;
const FORGED = { total_return: 99_899.9, final_balance: 9_999_999 };
/** Today's frame of Node's advanced-serialization IPC, well formed: a result the server served. */
const nodeIpcFrame = (message: unknown) => {
  const body = serialize(message);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
};
const GARBAGE = Buffer.from('\x00\x00\x00\x0fgarbage-garbage\xff\xfe\x00\x00\x00\x02{}', 'latin1');

describe('a strategy that writes to the server channel through pyodide_js._api', () => {
  it('serves no forged result, fails the run with a clear message, and the next run is served', async () => {
    const forged = await sandbox.run(job(throughApi(nodeIpcFrame({ result: FORGED })))).then(
      (result) => result,
      (error: Error & { code?: string }) => error,
    );
    expect(forged).toMatchObject({ code: 'BACKTEST__STRATEGY_FAILED' });
    expect((forged as Error).message).toMatch(/^AttributeError|broke its protocol/);
    const garbage = await failure(throughApi(GARBAGE));
    expect(garbage).toMatch(/^AttributeError|broke its protocol/);
    const clean = await sandbox.run(job(PYTHON_TEMPLATES.sma_crossover));
    expect(clean.total_trades).toBeGreaterThan(4);
  }, 120_000);
});

/** The highest peak resident memory (VmHWM, MB) of this process's children now. */
function childrenPeakMb(): number {
  let peak = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) !== process.pid) continue;
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // ended meanwhile
    }
  }
  return peak;
}

// The process answers a window's intents at once, showing the strategy its position from its own copy
// of the runtime: the trades must be exactly those of the same strategy fed a candle at a time by the
// server's engine. The reasons carry what the strategy saw, so a position shown wrong shows.
const BUSY_PYTHON = `n = 0

def on_candle(c, ctx):
    global n
    n += 1
    seen = f"n {n} lots {ctx.open_lots} of {ctx.max_positions} entry {ctx.last_entry_price is not None}"
    if ctx.open_lots > 0 and c.close > ctx.last_entry_price * 1.002:
        return {"action": "sell", "reason": "up " + seen}
    if n % 3 == 0 and ctx.open_lots < ctx.max_positions:
        return {"action": "buy", "reason": "third " + seen}
    if n % 7 == 0:
        return {"action": "exit", "reason": "seventh " + seen}
    if n % 11 == 0:
        return {"action": "buy", "reason": "eleventh " + seen}
    return None
`;
function busyStrategy() {
  let n = 0;
  return {
    onCandle(c: { close: number }, ctx: { openLots: number; maxPositions: number; lastEntryPrice: number }) {
      n += 1;
      const seen = `n ${n} lots ${ctx.openLots} of ${ctx.maxPositions} entry ${Number.isNaN(ctx.lastEntryPrice) ? 'False' : 'True'}`;
      if (ctx.openLots > 0 && c.close > ctx.lastEntryPrice * 1.002)
        return { action: 'sell' as const, reason: `up ${seen}` };
      if (n % 3 === 0 && ctx.openLots < ctx.maxPositions)
        return { action: 'buy' as const, reason: `third ${seen}` };
      if (n % 7 === 0) return { action: 'exit' as const, reason: `seventh ${seen}` };
      if (n % 11 === 0) return { action: 'buy' as const, reason: `eleventh ${seen}` };
      return null;
    },
  };
}

describe('a strategy that trades on most candles, its intents answered a window at a time', () => {
  it('trades exactly as the same strategy fed one candle at a time (risk closes, refused buys, windows)', async () => {
    // 20,000 minutes: three windows, and answers cut short by the intents they carry.
    const minutes = Array.from({ length: 20_000 }, (_, i) => ({
      ...candles[i % candles.length]!,
      time: 60 * (i + 1),
    }));
    const busy = job(BUSY_PYTHON, {
      candles: minutes,
      intervalSeconds: 60,
      interval: '1M',
      // Three lots of ~150 USDC on 400 USDC: some buys are refused for the cash, some for the count.
      risk: { amount: '1', maxPositions: 3, stopLossPercent: '1', takeProfitPercent: '1.5' },
      initialCash: '400000000',
    });
    const expected = await computeBacktest(busy, () =>
      Promise.resolve({ strategy: busyStrategy(), dispose: () => {} }),
    );
    const actual = await roomy.run(busy);
    expect(expected.total_trades).toBeGreaterThan(500);
    expect(expected.trades.some((trade) => trade.reason === 'stop loss')).toBe(true);
    expect(expected.trades.some((trade) => trade.reason === 'take profit')).toBe(true);
    expect(actual).toEqual(expected);
  }, 180_000);
});

describe('a year of 1-minute candles in Python', () => {
  it('completes, its sandbox process never near its memory limit (the candles are streamed)', async () => {
    const random = seededRandom(2026);
    let price = 150;
    const year = Array.from({ length: 525_600 }, (_, i) => {
      const open = price;
      price = Number((price * (1 + (random() - 0.5) * 0.002)).toPrecision(10));
      return {
        time: 1_735_689_600 + 60 * i,
        open,
        close: price,
        high: Math.max(open, price),
        low: Math.min(open, price),
        volume: 1000,
      };
    });
    const long = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 300_000 });
    // A strategy that keeps every close it is given, as many do.
    const code = `closes = []\n\ndef on_candle(c, ctx):\n    closes.append(c.close)\n    if len(closes) % 1440 == 0:\n        return {"action": "exit" if ctx.open_lots else "buy", "reason": "daily"}\n    return None\n`;
    // What a sandbox process holds for a day of candles: Pyodide itself, its snapshot, the host.
    await long.run(job(code, { candles: year.slice(0, 1440), intervalSeconds: 60, interval: '1M' }));
    const baseline = childrenPeakMb();
    let peak = 0;
    const poll = setInterval(() => (peak = Math.max(peak, childrenPeakMb())), 25);
    const started = performance.now();
    try {
      const result = await long.run(
        job(code, { candles: year, intervalSeconds: 60, interval: '1M', cpuMs: 300_000 }),
      );
      peak = Math.max(peak, childrenPeakMb());
      const seconds = (performance.now() - started) / 1000;
      console.info(
        `a year of 1-minute Python: ${seconds.toFixed(1)} s, sandbox peak RSS ${peak.toFixed(0)} MB (a day: ${baseline.toFixed(0)} MB)`,
      );
      expect(result.candles).toBe(525_600);
      // A buy or exit a day (stop loss and take profit close some lots sooner).
      expect(result.trades.length).toBeGreaterThanOrEqual(365);
      expect(baseline).toBeGreaterThan(0);
      // The year costs the process little more than a day: its candles are streamed, never all held
      // (a year of candle objects in the process would be hundreds of MB); the strategy's own list of
      // 525,600 closes is most of the difference.
      expect(peak - baseline).toBeLessThan(64);
      expect(peak).toBeLessThan(PYTHON_MEMORY_LIMIT_MB * 0.75);
    } finally {
      clearInterval(poll);
      long.close();
    }
  }, 400_000);
});

// The design holds without the lockdown: whatever the process writes (its own host code included),
// the server reads bounded frames of one strict shape and computes every figure itself. These hosts
// replace python-host.ts, as a strategy that owns its process could.
const HOSTILE_HOST = (behaviour: string) => `
import { Socket } from 'node:net';
import { writeSync } from 'node:fs';
const channel = new Socket({ fd: 3, readable: true, writable: true });
const frame = (text) => {
  const body = Buffer.from(text);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
};
const send = (text) => channel.write(frame(text));
let pending = Buffer.alloc(0);
let frames = 0;
let mode = null;
let received = 0;
let largestFrame = 0;
channel.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
    const body = pending.subarray(4, 4 + pending.readUInt32BE(0));
    pending = pending.subarray(4 + body.length);
    // A backtest's candles come as binary frames (tag 1) before the requests that need them.
    largestFrame = Math.max(largestFrame, body.length);
    if (body[0] === 1) {
      received += (body.length - 1) / 48;
      continue;
    }
    frames += 1;
    const message = JSON.parse(body.toString());
    if (frames === 1) mode = message.load;
    behave(message, frames);
  }
});
function behave(message, frames) {
  ${behaviour}
}
send('{"ready":true}');
`;
const LOADED = `if (frames === 1) return send('{"loaded":true}');`;
/** Candles of the streaming test's job. */
const STREAMED_CANDLES = 50_000;
const HOSTS = {
  // Follows the protocol and records the most candles it held from a request's start on.
  recorder: `${LOADED} const held = Math.max(globalThis.held ?? 0, received - message.from); globalThis.held = held;
    if (message.to < ${STREAMED_CANDLES}) return send(JSON.stringify({ id: message.id, upto: message.to, intents: [] }));
    send(JSON.stringify({ id: message.id, upto: message.to, intents: [[message.to - 1, { action: 'buy', reason: 'held ' + held + ' frame ' + largestFrame }]] }));`,
  nodeIpcForgery: `if (frames === 1) writeSync(3, Buffer.from('${nodeIpcFrame({ result: FORGED }).toString('hex')}', 'hex'));`,
  garbage: `if (frames === 1) writeSync(3, Buffer.from('${GARBAGE.toString('hex')}', 'hex'));`,
  oversized: `if (frames === 1) writeSync(3, Buffer.from('7fffffff00', 'hex'));`,
  resultFrame: `${LOADED} send(JSON.stringify({ id: message.id, result: ${JSON.stringify(FORGED)} }));`,
  // Answers of one candle each, so that the server asks again while the extra ones arrive.
  unasked: `${LOADED} for (let i = 0; i < 3; i += 1) send(JSON.stringify({ id: message.id, upto: message.from + 1, intents: [] }));`,
  outOfRange: `${LOADED} send(JSON.stringify({ id: message.id, upto: message.to, intents: [[message.to + 5, { action: 'buy' }]] }));`,
  hugeError: `${LOADED} send(JSON.stringify({ id: message.id, error: 'x'.repeat(60000) }));`,
  // A buy on every candle it is asked about (live: the candle), a few hundred an answer.
  alwaysBuy: `${LOADED} if (message.values) return send(JSON.stringify({ id: message.id, intent: { action: 'buy', reason: 'forged' } }));
    const upto = Math.min(message.to, message.from + 500);
    const intents = [];
    for (let i = message.from; i < upto; i += 1) intents.push([i, { action: 'buy', reason: 'forged' }]);
    send(JSON.stringify({ id: message.id, upto, intents }));`,
};

describe('a hostile sandbox process (its host code replaced)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'solterm-hostile-'));
  const hostile = (name: keyof typeof HOSTS, more: { maxLive?: number; maxLivePerUser?: number } = {}) => {
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, HOSTILE_HOST(HOSTS[name]));
    return createPythonSandbox({
      log: pino({ level: 'silent' }),
      timeLimitMs: 4000,
      hostSource: file,
      ...more,
    });
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [
      'nodeIpcForgery',
      /broke its protocol \(a frame of \d+ bytes, over the bound of 65536\)|broke its protocol \(a frame that is not JSON\)/,
    ],
    ['garbage', /broke its protocol \(a frame that is not JSON\)/],
    ['oversized', /broke its protocol \(a frame of 2147483647 bytes, over the bound of 65536\)/],
    ['resultFrame', /broke its protocol \(an answer of the wrong shape\)/],
    // The extra answers arrive either before the server's next request or after it: both break it.
    ['unasked', /broke its protocol \((a frame it was not asked for|an answer to request 1, not 2)\)/],
    ['outOfRange', /broke its protocol \(an answer of the wrong shape\)/],
  ] as const)(
    '%s: the run fails with a clear message, nothing it wrote is served',
    async (name, message) => {
      const host = hostile(name);
      try {
        const error = await host.run(job('')).then(
          () => null,
          (e: Error & { code?: string }) => e,
        );
        expect(error).toMatchObject({ code: 'BACKTEST__STRATEGY_FAILED' });
        expect(error!.message).toMatch(message);
      } finally {
        host.close();
      }
    },
    60_000,
  );

  it('streams a long range to the process a window at a time, in frames of 64 KiB at most', async () => {
    const host = hostile('recorder');
    try {
      const minutes = Array.from({ length: STREAMED_CANDLES }, (_, i) => ({
        ...candles[i % candles.length]!,
        time: 60 * (i + 1),
      }));
      const served = await host.run(job('', { candles: minutes, intervalSeconds: 60, interval: '1M' }));
      const [, held, frame] = /^held (\d+) frame (\d+)$/.exec(served.trades[0]!.reason)!;
      expect(Number(held)).toBeGreaterThan(0);
      expect(Number(held)).toBeLessThanOrEqual(SANDBOX_WINDOW);
      expect(Number(frame)).toBeLessThanOrEqual(64 * 1024);
    } finally {
      host.close();
    }
  }, 60_000);

  it('a host that follows the protocol only chooses intents: the server computes the result', async () => {
    const host = hostile('alwaysBuy');
    try {
      const always = job('');
      const expected = await computeBacktest(always, () =>
        Promise.resolve({
          strategy: { onCandle: () => ({ action: 'buy' as const, reason: 'forged' }) },
          dispose: () => {},
        }),
      );
      const served = await host.run(always);
      expect(served).toEqual(expected);
      expect(served.total_return).not.toBe(FORGED.total_return);
    } finally {
      host.close();
    }
  }, 60_000);

  it('a strategy error is cut to a few KB before it reaches a response', async () => {
    const host = hostile('hugeError');
    try {
      const error = await host.run(job('')).then(
        () => null,
        (e: Error) => e,
      );
      expect(error!.message.length).toBeLessThanOrEqual(MAX_STRATEGY_MESSAGE_CHARS + 1);
      expect(error!.message).toMatch(/^x+…$/);
    } finally {
      host.close();
    }
  }, 60_000);

  it('a live bot whose process writes garbage stops with a clear message; the next one runs', async () => {
    const position = { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN };
    const start = { code: '', parameters: {}, seed: 1, candleMs: 2000 };
    const garbage = hostile('garbage');
    const honest = hostile('alwaysBuy');
    try {
      const broken = await garbage.startLive({ userId: 'a', ...start }).then(
        () => null,
        (e: Error) => e,
      );
      expect(broken?.name).toBe('StrategyError');
      expect(broken?.message).toMatch(/broke its protocol \(a frame that is not JSON\)/);
      const live = await honest.startLive({ userId: 'a', ...start });
      expect(await live.step(candles[0]!, position)).toEqual({ action: 'buy', reason: 'forged' });
      live.dispose();
    } finally {
      garbage.close();
      honest.close();
    }
  }, 60_000);

  it('one user takes at most their share of the live Python processes', async () => {
    const host = hostile('alwaysBuy', { maxLive: 3, maxLivePerUser: 2 });
    const start = { code: '', parameters: {}, seed: 1, candleMs: 2000 };
    try {
      await host.startLive({ userId: 'mallory', ...start });
      await host.startLive({ userId: 'mallory', ...start });
      await expect(host.startLive({ userId: 'mallory', ...start })).rejects.toMatchObject({
        code: 'BOTS__PYTHON_USER_LIMIT',
        message: 'You can run at most 2 Python bots at once on this server. Stop one to start another.',
      });
      // The last slot is still there for someone else.
      await host.startLive({ userId: 'alice', ...start });
      await expect(host.startLive({ userId: 'bob', ...start })).rejects.toMatchObject({
        code: 'BOTS__PYTHON_BUSY',
      });
    } finally {
      host.close();
    }
  }, 60_000);
});

describe('a host without the network wall', () => {
  it('refuses Python (fails closed) and says what the host lacks', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'solterm-no-userns-'));
    writeFileSync(
      join(bin, 'unshare'),
      '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n',
    );
    chmodSync(join(bin, 'unshare'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    const walled = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 4000 });
    try {
      expect(walled.availability()).toEqual({
        available: false,
        reason: expect.stringMatching(
          /does not permit unprivileged user and network namespaces.*exited 1: unshare: unshare failed: Operation not permitted/,
        ),
      });
      await expect(walled.run(job('def on_candle(c, ctx):\n    return None'))).rejects.toMatchObject({
        code: 'BOTS__PYTHON_UNAVAILABLE',
      });
      await expect(
        walled.startLive({ userId: 'a', code: '', parameters: {}, seed: 1, candleMs: 500 }),
      ).rejects.toMatchObject({ code: 'BOTS__PYTHON_UNAVAILABLE' });
    } finally {
      process.env.PATH = path;
      walled.close();
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
