import { readdirSync, readFileSync } from 'node:fs';
import { PYTHON_TEMPLATES } from '@solterm/engine';
import pino from 'pino';
import type { BacktestJob } from '../apps/server/src/modules/bots/backtest/backtest-job';
import { createPythonSandbox } from '../apps/server/src/modules/bots/sandbox/python-sandbox';
import { yearOfMinutes } from './lib/candles';
import { report, round } from './lib/harness';

// User Python in the Pyodide sandbox process: the SMA crossover template over one year of 1-minute
// candles (525,600), through the engine's runtime with stop loss 2 %, take profit 3 % and the live
// maker's pricing, end to end as the API runs it (candles sent to the process, result back).
// run_ms is with the process already loaded (the sandbox keeps one ready); process_load_ms is what
// loading Pyodide costs once per process, off the request path. Best of 3 runs, with the CPU time
// each side used in it (the sandbox's limit counts its process's CPU time, not the clock's).
const TARGET_CANDLES_PER_SECOND = 20_000;
const MINUTES = 525_600;

const candles = yearOfMinutes();
const job: BacktestJob = {
  strategy: {
    kind: 'python',
    code: PYTHON_TEMPLATES.sma_crossover,
    parameters: { short_window: 5, long_window: 20 },
  },
  risk: { amount: '0.0001', maxPositions: 1, stopLossPercent: '2', takeProfitPercent: '3' },
  candles,
  intervalSeconds: 60,
  interval: '1M',
  symbol: 'SOL/USDC',
  baseDecimals: 9,
  quoteDecimals: 6,
  quoteUsdPrice: '1',
  initialCash: '1000000000',
  seed: 1,
  cpuMs: 120_000,
};
const sandbox = createPythonSandbox({ log: pino({ level: 'silent' }), timeLimitMs: 120_000 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 4000));

/** CPU time (ms) of each child process of this one now: the sandbox processes. */
function childrenCpuMs(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) !== process.pid)
        continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

const loadStarted = performance.now();
await sandbox.run({ ...job, candles: candles.slice(0, 100) });
const firstMs = performance.now() - loadStarted;
let best = { ms: Number.POSITIVE_INFINITY, trades: 0, serverCpuMs: 0, sandboxCpuMs: 0 };
for (let run = 0; run < 3; run += 1) {
  await settle(); // the next process has loaded meanwhile, as between two users' backtests
  // The loaded process this run takes is among these; the one started for the next run is not.
  const before = childrenCpuMs();
  const last = new Map(before);
  const poll = setInterval(() => {
    for (const [pid, ms] of childrenCpuMs()) if (before.has(pid)) last.set(pid, ms);
  }, 20);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await sandbox.run(job);
  const ms = performance.now() - started;
  const server = process.cpuUsage(cpu);
  clearInterval(poll);
  const sandboxCpuMs = Math.max(...[...before].map(([pid, ms0]) => last.get(pid)! - ms0));
  if (ms < best.ms) {
    best = {
      ms,
      trades: result.total_trades,
      serverCpuMs: (server.user + server.system) / 1000,
      sandboxCpuMs,
    };
  }
}
sandbox.close();
const perSecond = MINUTES / (best.ms / 1000);
report(
  'backtest-sandbox-python-sma-year-1m',
  {
    candles: MINUTES,
    trades: best.trades,
    best_ms: round(best.ms),
    server_cpu_ms: round(best.serverCpuMs),
    sandbox_cpu_ms: round(best.sandboxCpuMs),
    candles_per_s: Math.round(perSecond),
    process_load_ms: round(firstMs),
    network_isolated: sandbox.networkIsolated ? 1 : 0,
  },
  [`target_candles_per_s>=${TARGET_CANDLES_PER_SECOND}`],
  perSecond >= TARGET_CANDLES_PER_SECOND,
);
