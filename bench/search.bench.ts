import autocannon from 'autocannon';
import { report, startServer } from './lib/harness';

// GET /api/trading/dexscreener?query=bo&limit=20: at least 1,000 requests/s with p99 under 50 ms
// (autocannon, 50 connections, loopback, embedded database, simulator).
const TARGET_RPS = 1000;
const TARGET_P99_MS = 50;

const server = await startServer();
try {
  const url = `${server.url}/api/trading/dexscreener?query=bo&limit=20`;
  const check = (await (await fetch(url)).json()) as { data: Array<{ symbol: string }> };
  if (!check.data.some((result) => result.symbol === 'BONK')) throw new Error('search did not find BONK');
  await autocannon({ url, connections: 50, duration: 3 });
  const result = await autocannon({ url, connections: 50, duration: 10 });
  const rps = Math.round(result.requests.average);
  const p99 = result.latency.p99;
  report(
    'search',
    {
      rps,
      p50_ms: result.latency.p50,
      p99_ms: p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
    },
    [`target_rps>=${TARGET_RPS}`, `target_p99_ms<${TARGET_P99_MS}`],
    result.non2xx === 0 && result.errors === 0 && rps >= TARGET_RPS && p99 < TARGET_P99_MS,
  );
} finally {
  await server.stop();
}
