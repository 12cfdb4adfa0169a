import autocannon from 'autocannon';
import { report, startServer } from './lib/harness';

// GET /api/market/dashboard-coins: at least 5,000 requests/s with p99 under 25 ms (autocannon,
// 50 connections, loopback, embedded database, simulator). The answer is computed once per second.
const TARGET_RPS = 5000;
const TARGET_P99_MS = 25;

const server = await startServer();
try {
  const url = `${server.url}/api/market/dashboard-coins`;
  await autocannon({ url, connections: 50, duration: 3 }); // warm-up (JIT, sockets)
  const result = await autocannon({ url, connections: 50, duration: 10 });
  const rps = Math.round(result.requests.average);
  const p99 = result.latency.p99;
  report(
    'dashboard-coins',
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
