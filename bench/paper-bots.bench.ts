import { percentile, report, round, startServer } from './lib/harness';

// 200 paper bots on 1-minute candles in one (embedded, fresh) server: from a minute's close until
// every bot has evaluated that candle (each bot's "next candle" moved on), while one client asks
// /api/health one request at a time. Forty users running 5 bots each (the per-user limit of running
// bots). Waits for two closes and reports the slower.
const TARGET_EVALUATED_MS = 1000;
const TARGET_HEALTH_P99_MS = 50;
const USERS = 40;
const BOTS_PER_USER = 5;

// Forty registrations from one client: above the default 20 a minute.
const server = await startServer({ AUTH_RATE_LIMIT_MAX: '100' });
try {
  const request = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as { data: unknown };
  };
  const tokens: string[] = [];
  for (let user = 0; user < USERS; user += 1) {
    const auth = await request('POST', '/auth/register', {
      username: `bench${user}`,
      email: `bench-${user}-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const token = (auth.data as { token: string }).token;
    tokens.push(token);
    for (let bot = 0; bot < BOTS_PER_USER; bot += 1) {
      const created = await request(
        'POST',
        '/bots',
        {
          name: `SMA ${user}-${bot}`,
          strategy_type: 'sma_crossover',
          config: { amount: 0.1, interval: '1M' },
        },
        token,
      );
      await request('POST', `/bots/${(created.data as { bot_id: string }).bot_id}/start`, {}, token);
    }
  }
  // Every bot's current task names the close it waits for; all moved past `close` = all evaluated.
  const allPast = async (closeText: string) => {
    for (const token of tokens) {
      const bots = (await request('GET', '/bots', undefined, token)).data as {
        current_task: string | null;
      }[];
      if (bots.some((bot) => bot.current_task?.includes(`at ${closeText} UTC`))) return false;
    }
    return true;
  };
  const health: number[] = [];
  let measuring = true;
  const healthLoop = (async () => {
    while (measuring) {
      const started = performance.now();
      await (await fetch(`${server.url}/api/health`)).arrayBuffer();
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const evaluated: number[] = [];
  for (let close = 0; close < 2; close += 1) {
    const next = Math.ceil(Date.now() / 60_000) * 60_000;
    await new Promise((resolve) => setTimeout(resolve, next - Date.now()));
    const closeText = new Date(next).toISOString().slice(11, 16);
    while (!(await allPast(closeText))) await new Promise((resolve) => setTimeout(resolve, 25));
    evaluated.push(Date.now() - next);
  }
  measuring = false;
  await healthLoop;
  const slowest = Math.max(...evaluated);
  const p99 = percentile(health, 99);
  report(
    'paper-bots-200-1m',
    {
      bots: USERS * BOTS_PER_USER,
      evaluated_ms: round(slowest),
      health_p50_ms: round(percentile(health, 50)),
      health_p99_ms: round(p99),
    },
    [`target_evaluated_ms<${TARGET_EVALUATED_MS}`, `target_health_p99_ms<${TARGET_HEALTH_P99_MS}`],
    slowest < TARGET_EVALUATED_MS && p99 < TARGET_HEALTH_P99_MS,
  );
} finally {
  await server.stop();
}
