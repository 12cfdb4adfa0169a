import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { report, round, serverCpuMs, startServer } from './lib/harness';

// GET /api/market/dashboard-coins: at least 20,000 requests/s with p99 under 10 ms (autocannon,
// 50 connections, loopback, embedded database, simulator; the client shares the machine's two cores).
// The answer is encoded once per second. The reference, measured in the same run: a bare node:http
// server in its own process answering the same bytes with the same headers — the most this client
// and machine can do for this answer, whatever the framework.
const TARGET_RPS = 20_000;
const TARGET_P99_MS = 10;
const CONNECTIONS = 50;

/** A bare node:http server answering `body` with `headers` to every request; resolves to its URL. */
async function startReference(body: string, headers: Record<string, string>) {
  const code = `
    import http from 'node:http';
    const body = Buffer.from(process.env.REF_BODY);
    const headers = Object.entries(JSON.parse(process.env.REF_HEADERS)).flat();
    const server = http.createServer((_request, response) => {
      response.writeHead(200, headers);
      response.end(body);
    });
    server.keepAliveTimeout = 72_000;
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    env: { ...process.env, REF_BODY: body, REF_HEADERS: JSON.stringify(headers) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`reference server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

const server = await startServer();
try {
  const url = `${server.url}/api/market/dashboard-coins`;
  const sample = await fetch(url);
  const headers = Object.fromEntries(
    [...sample.headers.entries()].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
  );
  const reference = await startReference(await sample.text(), headers);
  try {
    await autocannon({ url, connections: CONNECTIONS, duration: 3 }); // warm-up (JIT, sockets)
    await autocannon({ url: reference.url, connections: CONNECTIONS, duration: 2 });
    const cpuBefore = await serverCpuMs();
    const result = await autocannon({ url, connections: CONNECTIONS, duration: 10 });
    const cpuAfter = await serverCpuMs();
    const bare = await autocannon({ url: reference.url, connections: CONNECTIONS, duration: 10 });
    const rps = Math.round(result.requests.average);
    const p99 = result.latency.p99;
    const mainUs =
      cpuBefore && cpuAfter
        ? round(((cpuAfter.main - cpuBefore.main) * 1000) / result.requests.total)
        : 'n/a';
    report(
      'dashboard-coins',
      {
        rps,
        p50_ms: result.latency.p50,
        p99_ms: p99,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        main_thread_us_per_request: mainUs,
        reference_rps: Math.round(bare.requests.average),
        reference_p99_ms: bare.latency.p99,
        ours_over_reference: round(result.requests.average / bare.requests.average, 2),
      },
      [`target_rps>=${TARGET_RPS}`, `target_p99_ms<${TARGET_P99_MS}`],
      result.non2xx === 0 && result.errors === 0 && rps >= TARGET_RPS && p99 < TARGET_P99_MS,
    );
  } finally {
    reference.stop();
  }
} finally {
  await server.stop();
}
