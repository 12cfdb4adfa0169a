/**
 * Benchmark: pre-signed SOL transfers through `sendTransaction` at the app's `/rpc` — what a bot or
 * a dApp pointed at the product's cluster touches: the app's HTTP server, its per-client limits,
 * the hop to the cluster's worker thread and back — 32 requests in flight, on a freshly started
 * server (embedded cluster, ledger fsync on). The public /rpc rate limit (100 requests / 10 s a
 * client) is lifted for the run.
 *
 * Prints one result line:
 *   bench=rpc-send tps=<n> n=<count> target_tps>=3000 pass=<bool> errors=<n> conns=32
 *
 * Options: --n=20000 (or BENCH_N).
 */
import { loadavg } from 'node:os';
import { report, serverCpuMs, startServer } from './lib/harness';
import { destroyAgent, missingFromLog, prepareTransfers, pushTransfers } from './lib/presigned-transfers';

const TARGET_TPS = 3000;
const CONNS = 32;
const flag = process.argv.find((argument) => argument.startsWith('--n='));
const N = Number(flag?.slice(4) ?? process.env.BENCH_N ?? 20_000);

const server = await startServer({ RPC_RATE_LIMIT_MAX: '100000000', RPC_AIRDROP_CLIENT_MAX_SOL: '1000' });
try {
  const url = new URL(`${server.url}/rpc`);
  const signed = await prepareTransfers(url, N);
  // A first pass of 2,000 warms the path (JIT, the worker's caches); the next N are measured.
  await pushTransfers(url, await prepareTransfers(url, 2_000), CONNS);
  const cpuBefore = await serverCpuMs();
  const { seconds, errors: wrongAnswers } = await pushTransfers(url, signed, CONNS);
  const cpuAfter = await serverCpuMs();
  const tps = Math.round(signed.length / seconds);
  const errors = wrongAnswers + (await missingFromLog(url, signed));
  if (cpuBefore !== undefined && cpuAfter !== undefined) {
    const perTx = (ms: number) => ((ms * 1000) / signed.length).toFixed(0);
    console.error(
      `cpu µs per tx: server ${perTx(cpuAfter.all - cpuBefore.all)} (main thread ${perTx(cpuAfter.main - cpuBefore.main)}); load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  report(
    'rpc-send',
    { tps, n: signed.length, errors, conns: CONNS },
    [`target_tps>=${TARGET_TPS}`],
    tps >= TARGET_TPS && errors === 0,
  );
} finally {
  destroyAgent();
  await server.stop();
}
