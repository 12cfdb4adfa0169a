import { percentile, report, round, startServer } from './lib/harness';

// POST /api/bots/backtest for one year of hourly SOL/USDC candles (8,760) with the built-in SMA
// crossover, end to end on loopback: request validation, the simulator's candles, the backtest worker
// thread, the answer with the hourly equity curve. first_ms: the first backtest on a freshly started
// server (worker thread started, the year of hours computed); then p50/p99 over warm runs.
const TARGET_P50_MS = 500;
const RUNS = 15;

const server = await startServer();
try {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as { data: Record<string, unknown> };
  };
  const auth = await post('/auth/register', {
    username: 'bench',
    email: `bench-${Date.now()}@example.com`,
    password: 'correct horse battery',
  });
  const token = auth.data.token as string;
  const bot = await post(
    '/bots',
    { name: 'SMA year', strategy_type: 'sma_crossover', config: { amount: 1 } },
    token,
  );
  const end = new Date();
  const start = new Date(end.getTime() - 364 * 86_400_000);
  const request = {
    bot_id: bot.data.bot_id,
    start_date: start.toISOString().slice(0, 10),
    end_date: end.toISOString().slice(0, 10),
    initial_balance: 1000,
  };
  const timed = async () => {
    const started = performance.now();
    const answer = await post('/bots/backtest', request, token);
    return { ms: performance.now() - started, candles: answer.data.candles as number };
  };
  const first = await timed();
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push((await timed()).ms);
  const p50 = percentile(runs, 50);
  report(
    'backtest-api-year-hourly',
    {
      candles: first.candles,
      first_ms: round(first.ms),
      p50_ms: round(p50),
      p99_ms: round(percentile(runs, 99)),
    },
    [`target_p50_ms<${TARGET_P50_MS}`],
    first.candles >= 8700 && p50 < TARGET_P50_MS,
  );
} finally {
  await server.stop();
}
