import { loadavg } from 'node:os';
import { percentile, report, round, startServer, serverCpuMs } from './lib/harness';
import { createWallet, type Envelope } from './lib/browser-wallet';
import {
  endTransferReference,
  startTransferReference,
  TRANSFER_REFERENCE_ENV,
} from './lib/transfer-reference';

// A full spot swap round trip on loopback, p50 under 20 ms (issue #28): POST /api/trading/get-unsigned-transaction
// (SOL/USDC, 0.01 SOL), the wallet signs it here, then POST
// /api/trading/execute-signed-transaction, which verifies, re-quotes and adds the maker's signature,
// simulates, sends and answers once the
// embedded cluster reports the transaction `confirmed` (ledger fsync on, under the server's
// DATA_DIR). Timed from sending the first request until the execute answer has arrived; one wallet,
// one swap at a time, alternating Buy and Sell so the balances never run out. Each Buy/Sell pair
// trades its own quantity (0.01 SOL plus one micro-SOL per pair): the same order built twice on one
// blockhash at the same quote is byte-for-byte the same transaction, which the server cannot register
// twice (it answers 500). BENCH_N sets the number of timed round trips (default 200).
// The reference, in the same run: a plain SOL transfer by stock web3.js through the app's /rpc
// (lib/transfer-reference.ts), one after every second swap, so both meet the same machine.
const TARGET_P50_MS = 20;
const WARMUP = 20;
const RUNS = Number(process.env.BENCH_N ?? 200);
if (!Number.isSafeInteger(RUNS) || RUNS <= 0) throw new Error('BENCH_N must be a positive integer');
const QUANTITY = 0.01;
const quantityOf = (index: number) => round(QUANTITY + Math.floor(index / 2) * 1e-6, 6);

const server = await startServer(TRANSFER_REFERENCE_ENV);
try {
  const api = async <T>(method: 'GET' | 'POST', path: string, body?: object, token?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const envelope = (await response.json()) as Envelope<T>;
    return { status: response.status, envelope };
  };
  const must = <T>(what: string, answer: { status: number; envelope: Envelope<T> }): T => {
    if (answer.status !== 200)
      throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.envelope)}`);
    return answer.envelope.data;
  };

  // Given a wallet signed in with its challenge and funded from the faucet
  const wallet = createWallet();
  const challenge = must(
    'wallet-challenge',
    await api<{ message: string }>(
      'GET',
      `/api/auth/wallet-challenge?wallet_address=${wallet.address}&wallet_type=phantom`,
    ),
  );
  const { token } = must(
    'connect-wallet',
    await api<{ token: string }>('POST', '/api/auth/connect-wallet', {
      wallet_address: wallet.address,
      wallet_type: 'phantom',
      signature: wallet.signMessage(challenge.message),
      message: challenge.message,
    }),
  );
  must('fund', await api('POST', '/api/wallet/fund', { amount_sol: 5, amount_usdc: 2000 }, token));

  /** One swap: build, sign, execute; the times of each phase in milliseconds. */
  const swap = async (index: number) => {
    const side = index % 2 === 0 ? 'Buy' : 'Sell';
    const started = performance.now();
    const built = must(
      `get-unsigned ${side}`,
      await api<{ unsigned_transaction: string }>(
        'POST',
        '/api/trading/get-unsigned-transaction',
        { symbol: 'SOL/USDC', side, quantity: quantityOf(index) },
        token,
      ),
    );
    const builtAt = performance.now();
    const signed = wallet.signTransaction(built.unsigned_transaction);
    const signedAt = performance.now();
    const result = must(
      `execute ${side}`,
      await api<{ status: string; order: { status: string; receipt: { time_to_land_ms: number } } | null }>(
        'POST',
        '/api/trading/execute-signed-transaction',
        { signed_transaction: signed },
        token,
      ),
    );
    const done = performance.now();
    if (result.status !== 'confirmed' || result.order?.status !== 'Filled') {
      throw new Error(`execute ${side} answered ${JSON.stringify(result)}`);
    }
    return {
      total: done - started,
      build: builtAt - started,
      sign: signedAt - builtAt,
      execute: done - signedAt,
      serverExecute: result.order.receipt.time_to_land_ms,
    };
  };

  // When it swaps 0.01 SOL back and forth, one round trip at a time (after a warm-up)
  const transfer = await startTransferReference(server.url);
  for (let index = 0; index < WARMUP; index += 1) {
    await swap(index);
    if (index % 2 === 1) await transfer();
  }
  const runs: Awaited<ReturnType<typeof swap>>[] = [];
  const transfers: number[] = [];
  let cpu = { all: 0, main: 0 };
  for (let index = WARMUP; index < WARMUP + RUNS; index += 1) {
    const cpuBefore = await serverCpuMs();
    runs.push(await swap(index));
    const cpuAfter = await serverCpuMs();
    if (cpuBefore && cpuAfter)
      cpu = { all: cpu.all + cpuAfter.all - cpuBefore.all, main: cpu.main + cpuAfter.main - cpuBefore.main };
    if (index % 2 === 1) transfers.push(await transfer());
  }

  // Then every round trip answered 200 with a filled order (must() throws otherwise), within target
  const p50Of = (pick: (run: (typeof runs)[number]) => number) => round(percentile(runs.map(pick), 50));
  console.error(
    `phases p50 (ms): get-unsigned ${p50Of((run) => run.build)}, sign ${p50Of((run) => run.sign)}, ` +
      `execute ${p50Of((run) => run.execute)} (server's time_to_land_ms ${p50Of((run) => run.serverExecute)})`,
  );
  // Diagnostics: the server's CPU per round trip, to tell its cost from a busy machine's.
  const perTrip = (ms: number) => round(ms / runs.length);
  console.error(
    `server cpu per round trip (ms): ${
      cpu.all > 0 ? `${perTrip(cpu.all)} all threads, ${perTrip(cpu.main)} main thread` : '?'
    }; load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  const totals = runs.map((run) => run.total);
  const p50 = percentile(totals, 50);
  report(
    'swap-round-trip',
    {
      p50_ms: round(p50),
      p90_ms: round(percentile(totals, 90)),
      p99_ms: round(percentile(totals, 99)),
      max_ms: round(Math.max(...totals)),
      n: runs.length,
      reference_transfer_p50_ms: round(percentile(transfers, 50)),
      reference_transfers: transfers.length,
      ours_over_reference: round(p50 / percentile(transfers, 50), 2),
    },
    [`target_p50_ms<${TARGET_P50_MS}`],
    runs.length === RUNS && p50 < TARGET_P50_MS,
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
