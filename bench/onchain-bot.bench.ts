import WebSocket from 'ws';
import { loadavg } from 'node:os';
import { percentile, report, round, serverCpuMs, startServer } from './lib/harness';
import { startFlipBot } from './lib/flip-bot';
import {
  endTransferReference,
  startTransferReference,
  TRANSFER_REFERENCE_ENV,
} from './lib/transfer-reference';

// An on-chain bot on 1-minute candles in a fresh embedded server: from a candle's close until the
// owner's socket hears that its trade is recorded, confirmed on the cluster (bot_timing_update) —
// the runner's wake-up, the strategy, and the swaps
// through the relay (a buy draws SOL under the approval and sells it for USDC first: three
// transactions; a sell is one). The bot flips (buys when flat, sells when holding): one trade per
// close, over four closes (BENCH_CLOSES sets how many). The reference, in the same run: a plain SOL
// transfer by stock web3.js through the app's /rpc (lib/transfer-reference.ts), ten after each close's
// trade, so both meet the same machine.
const TARGET_P50_MS = 50;
const CLOSES = Number(process.env.BENCH_CLOSES ?? 4);
if (!Number.isSafeInteger(CLOSES) || CLOSES <= 0) throw new Error('BENCH_CLOSES must be a positive integer');

const server = await startServer(TRANSFER_REFERENCE_ENV);
try {
  const { token, request, botId } = await startFlipBot(server.url);

  // The owner's socket: the runner pushes bot_timing_update once a close's trade is recorded.
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
  const updates: number[] = [];
  let onUpdate: (() => void) | undefined;
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as { type: string };
    if (message.type !== 'bot_timing_update') return;
    updates.push(Date.now());
    onUpdate?.();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'auth', token }));

  const transfer = await startTransferReference(server.url);
  const transfers: number[] = [];
  for (let warmUp = 0; warmUp < 10; warmUp += 1) await transfer();
  const tradesNow = async () =>
    (await request<{ trades: { side: string }[] }>('GET', `/bots/production/${botId}/status`)).trades;
  const latencies: number[] = [];
  const bySide: Record<string, number[]> = { Buy: [], Sell: [] };
  // Diagnostics: the server's main-thread CPU from just before each close until its trade is pushed,
  // and in a window as long as that a few seconds later (its background work, without a trade).
  const tradeCpu: number[] = [];
  const quietCpu: number[] = [];
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let close = 0; close < CLOSES; close += 1) {
    const known = (await tradesNow()).length;
    const next = Math.ceil(Date.now() / 60_000) * 60_000;
    await sleep(next - 100 - Date.now());
    const cpuBefore = await serverCpuMs();
    // (Reading the CPU time scans /proc: a fast trade's update may come in before it returns.)
    const pushed = new Promise<number>((resolve, reject) => {
      const early = updates.find((at) => at >= next);
      if (early !== undefined) return resolve(early);
      const timeout = setTimeout(
        () => reject(new Error('no bot_timing_update within 30 s of the close')),
        next - Date.now() + 30_000,
      );
      onUpdate = () => {
        const at = updates.at(-1)!;
        if (at < next) return;
        clearTimeout(timeout);
        onUpdate = undefined;
        resolve(at);
      };
    });
    const latency = (await pushed) - next;
    const cpuAfter = await serverCpuMs();
    const windowMs = Date.now() - next + 20;
    if (cpuBefore && cpuAfter) tradeCpu.push(cpuAfter.main - cpuBefore.main);
    await sleep(3_000);
    const quietBefore = await serverCpuMs();
    await sleep(windowMs);
    const quietAfter = await serverCpuMs();
    if (quietBefore && quietAfter) quietCpu.push(quietAfter.main - quietBefore.main);
    const trades = await tradesNow();
    if (trades.length !== known + 1)
      throw new Error(`expected one new trade at the close, found ${trades.length - known}`);
    latencies.push(latency);
    bySide[trades[0]!.side]!.push(latency);
    for (let sent = 0; sent < 10; sent += 1) transfers.push(await transfer());
  }
  socket.close();
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  console.error(
    `server main-thread cpu per trade (ms): ${tradeCpu.length ? round(sum(tradeCpu) / tradeCpu.length) : '?'} ` +
      `(${tradeCpu.join('/')}); the same windows without a trade: ${quietCpu.length ? round(sum(quietCpu) / quietCpu.length) : '?'}; ` +
      `load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
  );
  const p50 = percentile(latencies, 50);
  report(
    'onchain-bot-trade-1m',
    {
      closes: CLOSES,
      p50_ms: round(p50),
      max_ms: round(Math.max(...latencies)),
      buy_ms: bySide.Buy!.map((ms) => round(ms)).join('/') || 'none',
      sell_ms: bySide.Sell!.map((ms) => round(ms)).join('/') || 'none',
      reference_transfer_p50_ms: round(percentile(transfers, 50)),
      reference_transfers: transfers.length,
      ours_over_reference: round(p50 / percentile(transfers, 50), 2),
    },
    [`target_p50_ms<${TARGET_P50_MS}`],
    p50 < TARGET_P50_MS,
  );
} catch (error) {
  // The exit below would end the process before a thrown error is reported.
  console.error(error);
  process.exitCode = 1;
} finally {
  endTransferReference();
  await server.stop();
  // web3.js's Connection keeps timers it cannot close (lib/transfer-reference.ts).
  process.exit(process.exitCode ?? 0);
}
