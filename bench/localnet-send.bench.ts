/**
 * Benchmark: pre-signed SOL transfers pushed through the local cluster's sendTransaction over HTTP
 * JSON-RPC (keep-alive, several concurrent connections), against the standalone server in its own
 * process (`packages/localnet/src/main.ts`) with a real data directory (ledger fsync on).
 *
 * Prints one result line:
 *   bench=localnet-send tps=<n> n=<count> target_tps>=3000 pass=<bool> errors=<n> conns=<n>
 *
 * Options: --n=20000 --conns=8 (or BENCH_N, BENCH_CONNS); BENCH_SERVER_NODE_ARGS adds node flags
 * to the server process (e.g. "--cpu-prof --cpu-prof-dir=/tmp/profile").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  destroyAgent,
  missingFromLog,
  prepareTransfers,
  processCpuMicros,
  pushTransfers,
} from './lib/presigned-transfers';

const TARGET_TPS = 3000;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function option(name: string, fallback: number): number {
  const flag = process.argv.find((argument) => argument.startsWith(`--${name}=`));
  const raw = flag?.slice(name.length + 3) ?? process.env[`BENCH_${name.toUpperCase()}`];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const N = option('n', 20_000);
const CONNS = option('conns', 8);

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: URL }> {
  // BENCH_SERVER_NODE_ARGS passes extra flags to the server process, e.g. "--cpu-prof".
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((flag) => flag.length > 0);
  const child = spawn(
    process.execPath,
    [...extra, '--import', 'tsx', join(ROOT, 'packages/localnet/src/main.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, LOCALNET_PORT: '0', LOCALNET_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<URL>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match !== null) resolve(new URL(match[1]!));
    });
    child.once('exit', (code) => reject(new Error(`localnet exited early with code ${code}`)));
  });
  return { child, url };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'localnet-bench-'));
  const { child, url } = await startServer(dataDir);
  try {
    const signed = await prepareTransfers(url, N);
    // When they are sent over CONNS keep-alive connections, one request in flight on each
    const serverCpuBefore = await processCpuMicros(child.pid!);
    const clientCpuBefore = process.cpuUsage();
    const { seconds, errors: wrongAnswers } = await pushTransfers(url, signed, CONNS);
    const serverCpuAfter = await processCpuMicros(child.pid!);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    // Diagnostics: CPU per transaction on each side, to tell our cost from a busy machine's.
    const perTx = (micros: number): string => (micros / signed.length).toFixed(0);
    const server =
      serverCpuBefore === undefined || serverCpuAfter === undefined
        ? '?'
        : `${perTx(serverCpuAfter.user - serverCpuBefore.user)} user + ${perTx(serverCpuAfter.system - serverCpuBefore.system)} sys`;
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    console.error(
      `send window ${seconds.toFixed(2)} s; cpu µs per tx: server ${server}, client ${perTx(clientCpu.user)} user + ${perTx(clientCpu.system)} sys; load average ${load}`,
    );
    const tps = Math.round(signed.length / seconds);
    // Then the cluster has every one of them in its signature log
    const errors = wrongAnswers + (await missingFromLog(url, signed));
    const pass = tps >= TARGET_TPS && errors === 0;
    console.log(
      `bench=localnet-send tps=${tps} n=${signed.length} target_tps>=${TARGET_TPS} pass=${pass} errors=${errors} conns=${CONNS}`,
    );
    if (!pass) process.exitCode = 1;
  } finally {
    destroyAgent();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
