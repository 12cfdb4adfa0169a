import os from 'node:os';
import WebSocket from 'ws';
import { percentile, round } from '../lib/harness';
import { ROOTS, startAt, type PairedServer } from './paired-servers';
import { startFlipBot } from '../lib/flip-bot';

// A/B of the on-chain bot (bench/onchain-bot.bench.ts) between two builds on this machine at once:
// `BENCH_AB_BASE=<the root of another checkout, its server built> node --import tsx bench/ab/onchain-bot.ts`
// starts both compiled servers with the same flipping bot, so both trade at the same closes, and prints
// each one's main-thread CPU from just before a close until its trade is pushed (beside the same window
// a few seconds later, without a trade) and its latency. BENCH_CLOSES sets the closes (default 4).
const CLOSES = Number(process.env.BENCH_CLOSES ?? 4);
type Which = keyof typeof ROOTS;

async function botOn(server: PairedServer) {
  const { token } = await startFlipBot(server.url);
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
  const updates: number[] = [];
  socket.on('message', (raw) => {
    if ((JSON.parse(raw.toString()) as { type: string }).type === 'bot_timing_update')
      updates.push(Date.now());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'auth', token }));
  return { updates, socket };
}

const servers = { base: await startAt(ROOTS.base, 41011), new: await startAt(ROOTS.new, 41012) };
try {
  const bots = { base: await botOn(servers.base), new: await botOn(servers.new) };
  const cpu = { base: [] as number[], new: [] as number[] };
  const latency = { base: [] as number[], new: [] as number[] };
  const quiet = { base: [] as number[], new: [] as number[] };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let close = 0; close < CLOSES; close += 1) {
    const next = Math.ceil(Date.now() / 60_000) * 60_000;
    await sleep(next - 20 - Date.now());
    const before = { base: await servers.base.mainCpu(), new: await servers.new.mainCpu() };
    const done = await Promise.all(
      (['base', 'new'] as Which[]).map(async (which) => {
        for (;;) {
          const at = bots[which].updates.find((time) => time >= next);
          if (at !== undefined) {
            latency[which].push(at - next);
            cpu[which].push((await servers[which].mainCpu()) - before[which]);
            return at - next;
          }
          if (Date.now() > next + 30_000) throw new Error(`${which}: no trade within 30 s of the close`);
          await sleep(2);
        }
      }),
    );
    const windowMs = Math.max(...done) + 20;
    await sleep(3_000);
    const quietBefore = { base: await servers.base.mainCpu(), new: await servers.new.mainCpu() };
    await sleep(windowMs);
    for (const which of ['base', 'new'] as Which[])
      quiet[which].push((await servers[which].mainCpu()) - quietBefore[which]);
    console.error(
      `close ${close}: base ${latency.base.at(-1)} ms / ${cpu.base.at(-1)} ms cpu, new ${latency.new.at(-1)} ms / ${cpu.new.at(-1)} ms cpu; load ${os.loadavg()[0]!.toFixed(1)}`,
    );
  }
  const mean = (values: number[]) => round(values.reduce((sum, value) => sum + value, 0) / values.length);
  for (const which of ['base', 'new'] as Which[]) {
    console.log(
      `${which}: main-thread cpu per trade ${mean(cpu[which])} ms (${cpu[which].join('/')}), same windows without a trade ${mean(quiet[which])} ms; latency p50 ${round(percentile(latency[which], 50))} ms (${latency[which].join('/')}); load ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
    );
  }
  for (const which of ['base', 'new'] as Which[]) bots[which].socket.close();
} finally {
  await servers.base.stop();
  await servers.new.stop();
}
