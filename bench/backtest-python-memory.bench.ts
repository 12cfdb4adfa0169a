import { readdirSync, readFileSync } from 'node:fs';
import pino from 'pino';
import type { BacktestJob } from '../apps/server/src/modules/bots/backtest/backtest-job';
import { createPythonSandbox } from '../apps/server/src/modules/bots/sandbox/python-sandbox';
import { yearOfMinutes } from './lib/candles';
import { report, round } from './lib/harness';

// Memory of a year-long Python backtest (525,600 1-minute candles): the peak resident memory of the
// sandbox process (VmHWM of every child of this process, read from /proc every 20 ms and at exit)
// and of this process (the server's side: its candles, the engine's state, the result), with a
// strategy that keeps every close it is given (a list of 525,600 floats, as many user strategies
// do) and trades often. Targets: the sandbox process under half its 512 MB limit, the run completes.
const SANDBOX_TARGET_MB = 256;

// BENCH_KEEP=candles: the strategy keeps every candle object instead (history.append(candle)).
const KEEP = process.env.BENCH_KEEP === 'candles' ? 'candle' : 'candle.close';
const CODE = `closes = []

def on_candle(candle, ctx):
    closes.append(${KEEP})
    if len(closes) < 20:
        return None
    average = sum(c${KEEP === 'candle' ? '.close' : ''} for c in closes[-20:]) / 20
    if candle.close < average * 0.999 and ctx.open_lots < ctx.max_positions:
        return {"action": "buy", "reason": "below its 20-minute average"}
    if candle.close > average * 1.001 and ctx.open_lots > 0:
        return {"action": "exit", "reason": "above its 20-minute average"}
    return None
`;

const candles = yearOfMinutes();
const job: BacktestJob = {
  strategy: { kind: 'python', code: CODE, parameters: {} },
  risk: { amount: '0.0001', maxPositions: 1, stopLossPercent: null, takeProfitPercent: null },
  candles,
  intervalSeconds: 60,
  interval: '1M',
  symbol: 'SOL/USDC',
  baseDecimals: 9,
  quoteDecimals: 6,
  quoteUsdPrice: '1',
  initialCash: '1000000000',
  seed: 1,
  cpuMs: 600_000,
};

const kb = (text: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
function childrenPeakKb(): number {
  let peak = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (kb(status, 'PPid') === process.pid) peak = Math.max(peak, kb(status, 'VmHWM'));
    } catch {
      // gone meanwhile
    }
  }
  return peak;
}

const sandbox = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 600_000 });
let sandboxPeakKb = 0;
let serverPeakRss = process.memoryUsage().rss;
const poll = setInterval(() => {
  sandboxPeakKb = Math.max(sandboxPeakKb, childrenPeakKb());
  serverPeakRss = Math.max(serverPeakRss, process.memoryUsage().rss);
}, 20);
const serverBefore = process.memoryUsage().rss;
const started = performance.now();
let outcome = 'completed';
let trades = 0;
try {
  const result = await sandbox.run(job);
  trades = result.total_trades;
} catch (error) {
  outcome = `failed: ${error instanceof Error ? error.message : String(error)}`;
}
const ms = performance.now() - started;
clearInterval(poll);
sandbox.close();
const serverHwm = kb(readFileSync('/proc/self/status', 'utf8'), 'VmHWM');
console.error(`outcome: ${outcome}`);
const sandboxMb = sandboxPeakKb / 1024;
report(
  'backtest-python-memory-year-1m',
  {
    candles: candles.length,
    trades,
    run_ms: round(ms),
    sandbox_peak_rss_mb: round(sandboxMb),
    server_rss_before_mb: round(serverBefore / 2 ** 20),
    server_peak_rss_mb: round(serverPeakRss / 2 ** 20),
    server_vmhwm_mb: round(serverHwm / 1024),
  },
  [`target_sandbox_peak_rss_mb<${SANDBOX_TARGET_MB}`, 'target_completed'],
  outcome === 'completed' && sandboxMb < SANDBOX_TARGET_MB,
);
