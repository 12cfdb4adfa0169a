import { percentile, report, round, startServer } from './lib/harness';

// `/api/health` latency while hostile user code computes: a JavaScript strategy spinning forever (the
// QuickJS sandbox in the backtest worker thread) and then a Python one (its own sandbox process),
// each until its time limit (BACKTEST_TIME_LIMIT_MS=6000 here), while one client asks /api/health one
// request at a time. p99 under 50 ms: user code must never stall the API's event loop. Fresh server.
const TARGET_P99_MS = 50;

const server = await startServer({ BACKTEST_TIME_LIMIT_MS: '6000' });
try {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { data: Record<string, unknown>; error?: string },
    };
  };
  const auth = await post('/auth/register', {
    username: 'bench',
    email: `bench-${Date.now()}@example.com`,
    password: 'correct horse battery',
  });
  const token = auth.body.data.token as string;
  const hostile = async (language: 'javascript' | 'python', code: string) => {
    const bot = await post(
      '/bots',
      { name: `spin ${language}`, strategy_type: 'scalper', config: { amount: 1, code, language } },
      token,
    );
    const end = new Date();
    return post(
      '/bots/backtest',
      {
        bot_id: bot.body.data.bot_id,
        start_date: new Date(end.getTime() - 30 * 86_400_000).toISOString().slice(0, 10),
        end_date: end.toISOString().slice(0, 10),
        initial_balance: 1000,
      },
      token,
    );
  };
  let busy = true;
  const load = (async () => {
    const js = await hostile('javascript', 'function onCandle() { while (true) {} }');
    const py = await hostile('python', 'def on_candle(c, ctx):\n    while True:\n        pass\n');
    busy = false;
    return [js, py];
  })();
  const latencies: number[] = [];
  while (busy) {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/health`);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const answers = await load;
  const stopped = answers.every(
    (answer) => answer.status === 422 && /time limit/.test(answer.body.error ?? ''),
  );
  const p99 = percentile(latencies, 99);
  report(
    'health-under-hostile-backtests',
    {
      health_requests: latencies.length,
      p50_ms: round(percentile(latencies, 50)),
      p99_ms: round(p99),
      max_ms: round(Math.max(...latencies)),
      hostile_stopped: stopped ? 1 : 0,
    },
    [`target_p99_ms<${TARGET_P99_MS}`],
    stopped && p99 < TARGET_P99_MS,
  );
} finally {
  await server.stop();
}
