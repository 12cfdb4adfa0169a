import os from 'node:os';
import { percentile, round } from '../lib/harness';
import { ROOTS, startAt } from './paired-servers';
import { createWallet, type Envelope } from '../lib/browser-wallet';

// A/B of the swap round trip (bench/swap-round-trip.bench.ts) between two builds on this machine at
// once: `BENCH_AB_BASE=<the root of another checkout, its server built> node --import tsx bench/ab/swap.ts`
// starts both compiled servers, gives each a wallet, and alternates their round trips (the order swapped
// every trip), so both meet the same load. Prints each one's main-thread CPU per round trip (from /proc,
// Linux) and its latency. BENCH_N sets the number of timed round trips per server (default 200).
const WARMUP = 20;
const RUNS = Number(process.env.BENCH_N ?? 200);
if (!Number.isSafeInteger(RUNS) || RUNS <= 0) throw new Error('BENCH_N must be a positive integer');
const QUANTITY = 0.01;
const quantityOf = (index: number) => round(QUANTITY + Math.floor(index / 2) * 1e-6, 6);

async function client(server: { url: string }) {
  const api = async <T>(method: 'GET' | 'POST', path: string, body?: object, token?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, envelope: (await response.json()) as Envelope<T> };
  };
  const must = <T>(what: string, answer: { status: number; envelope: Envelope<T> }): T => {
    if (answer.status !== 200)
      throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.envelope)}`);
    return answer.envelope.data;
  };
  const wallet = createWallet();
  const challenge = must(
    'challenge',
    await api<{ message: string }>(
      'GET',
      `/api/auth/wallet-challenge?wallet_address=${wallet.address}&wallet_type=phantom`,
    ),
  );
  const { token } = must(
    'connect',
    await api<{ token: string }>('POST', '/api/auth/connect-wallet', {
      wallet_address: wallet.address,
      wallet_type: 'phantom',
      signature: wallet.signMessage(challenge.message),
      message: challenge.message,
    }),
  );
  must('fund', await api('POST', '/api/wallet/fund', { amount_sol: 5, amount_usdc: 2000 }, token));
  return async (index: number) => {
    const side = index % 2 === 0 ? 'Buy' : 'Sell';
    const started = performance.now();
    const built = must(
      'build',
      await api<{ unsigned_transaction: string }>(
        'POST',
        '/api/trading/get-unsigned-transaction',
        { symbol: 'SOL/USDC', side, quantity: quantityOf(index) },
        token,
      ),
    );
    const result = must(
      'execute',
      await api<{ status: string; order: { status: string } | null }>(
        'POST',
        '/api/trading/execute-signed-transaction',
        { signed_transaction: wallet.signTransaction(built.unsigned_transaction) },
        token,
      ),
    );
    if (result.status !== 'confirmed' || result.order?.status !== 'Filled')
      throw new Error(JSON.stringify(result));
    return performance.now() - started;
  };
}

const servers = { base: await startAt(ROOTS.base, 41001), new: await startAt(ROOTS.new, 41002) };
try {
  const swaps = { base: await client(servers.base), new: await client(servers.new) };
  for (let index = 0; index < WARMUP; index += 1) {
    await swaps.base(index);
    await swaps.new(index);
  }
  const times = { base: [] as number[], new: [] as number[] };
  const cpu = { base: 0, new: 0 };
  for (let index = WARMUP; index < WARMUP + RUNS; index += 1) {
    for (const which of (index % 2 === 0 ? ['base', 'new'] : ['new', 'base']) as ('base' | 'new')[]) {
      const before = await servers[which].mainCpu();
      times[which].push(await swaps[which](index));
      cpu[which] += (await servers[which].mainCpu()) - before;
    }
  }
  for (const which of ['base', 'new'] as const) {
    console.log(
      `${which}: main-thread cpu ${round(cpu[which] / RUNS)} ms/round trip, p50 ${round(percentile(times[which], 50))} ms, p90 ${round(percentile(times[which], 90))} ms; load ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}`,
    );
  }
} finally {
  await servers.base.stop();
  await servers.new.stop();
}
