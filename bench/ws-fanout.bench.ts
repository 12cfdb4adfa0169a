import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/env';
import { percentile, report, ROOT, round } from './lib/harness';

// One price tick fanned out to 1,000 subscribed WebSocket clients in under 50 ms: from the start of
// a tick (computing every token's price and 24 h change for a new second) until the last of 1,000
// clients — in another process, on loopback — has received and parsed it.
const CLIENTS = 1000;
const TICKS = 20;
const TARGET_MS = 50;
const now = () => performance.timeOrigin + performance.now();

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-bench-'));
const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', MARKET_TICK_MS: '3600000' }));
await app.server.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.server.address() as { port: number };
const clients = fork(
  path.join(ROOT, 'bench/lib/ws-clients.ts'),
  [`ws://127.0.0.1:${port}/ws`, String(CLIENTS)],
  {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  },
);
const nextMessage = (type: string) =>
  new Promise<{ type: string; at: number }>((resolve) => {
    const listener = (message: { type: string; at: number }) => {
      if (message.type !== type) return;
      clients.off('message', listener);
      resolve(message);
    };
    clients.on('message', listener);
  });

try {
  await nextMessage('ready');
  if (app.hub.subscriberCount('prices') !== CLIENTS) throw new Error('not every client subscribed');
  const durations: number[] = [];
  let payloadBytes = 0;
  for (let tick = 0; tick < TICKS + 2; tick += 1) {
    // Start just after a whole second, so each tick computes a fresh payload (prices change each second).
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const delivered = nextMessage('all-received');
    const started = now();
    await app.market.stream.tick();
    const { at } = await delivered;
    if (tick >= 2) durations.push(at - started); // the first two ticks warm the JIT
    payloadBytes = JSON.stringify(await app.services.market.getPricesTick()).length;
  }
  const p99 = percentile(durations, 99);
  report(
    'ws-fanout',
    {
      clients: CLIENTS,
      ticks: TICKS,
      payload_bytes: payloadBytes,
      p50_ms: round(percentile(durations, 50)),
      p99_ms: round(p99),
      max_ms: round(Math.max(...durations)),
    },
    [`target_p99_ms<${TARGET_MS}`],
    p99 < TARGET_MS,
  );
} finally {
  clients.send({ type: 'stop' });
  await app.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
