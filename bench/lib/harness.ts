import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The server as the production build compiles it (scripts/build-server.mjs). */
export const BUILT_SERVER = 'apps/server/dist/server.mjs';

/**
 * Prints the one machine-readable result line of a benchmark:
 * `bench=<name> <measure>=<value>… <target>… pass=<bool>`, e.g.
 * `bench=dashboard-coins rps=6123 p99_ms=11 target_rps>=5000 target_p99_ms<25 pass=true`.
 */
export function report(
  name: string,
  measures: Record<string, string | number>,
  targets: readonly string[],
  pass: boolean,
): void {
  const parts = [
    `bench=${name}`,
    ...Object.entries(measures).map(([key, value]) => `${key}=${value}`),
    ...targets,
    `pass=${pass}`,
  ];
  console.log(parts.join(' '));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  /** The server's fresh, temporary data directory (removed by stop()). */
  dataDir: string;
  /** Milliseconds from spawning the process to its first successful /api/health. */
  readyAfterMs: number;
  /** Stops the server; with keepDataDir the caller still reads (and then removes) the directory. */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
}

/**
 * Starts the real server — the compiled build (`apps/server/dist/server.mjs`, `npm run build`), or its
 * TypeScript through tsx with BENCH_SERVER=source or `options.source` — in a child process on a free loopback port,
 * with an embedded database in a fresh temporary DATA_DIR, and waits until it answers /api/health.
 * The benchmark client runs in this process, so the two do not share an event loop.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { source?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-bench-'));
  const spawnedAt = performance.now();
  // BENCH_SERVER_NODE_ARGS: node flags for the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p` to
  // profile it under a benchmark's load (node refuses --cpu-prof in NODE_OPTIONS).
  const flags = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const entry =
    (options.source ?? process.env.BENCH_SERVER === 'source')
      ? ['--import', 'tsx', 'apps/server/src/server.ts']
      : ['--enable-source-maps', BUILT_SERVER];
  const args = [...flags, ...entry];
  // BENCH_SERVER_LOG: a file to take the server's log (stdout: warnings and up, unless `env` sets
  // LOG_LEVEL).
  const log = process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'w') : undefined;
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', log ?? 'ignore', 'inherit'],
  });
  // (The child has its own copy of the log's descriptor.)
  if (log !== undefined) closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start within 180 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const readyAfterMs = performance.now() - spawnedAt;
  return {
    url,
    dataDir,
    readyAfterMs,
    async stop(options = {}) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (!options.keepDataDir) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/**
 * CPU time (ms, user + system) used so far by the server (a child of this process), all its threads
 * and its main thread alone, from /proc (Linux only). The main thread runs the event loop, so its
 * CPU per request is a floor under the request's latency on an idle machine.
 */
export async function serverCpuMs(): Promise<{ all: number; main: number } | undefined> {
  const ticks = async (file: string) => {
    const stat = await fs.readFile(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return { ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10 };
  };
  try {
    for (const entry of await fs.readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const candidate = await ticks(`/proc/${entry}/stat`).catch(() => undefined);
      if (candidate?.ppid !== process.pid) continue;
      // (tsx's esbuild service is a child too)
      if (!/server\.(ts|mjs)/.test(await fs.readFile(`/proc/${entry}/cmdline`, 'utf8'))) continue;
      return { all: candidate.ms, main: (await ticks(`/proc/${entry}/task/${entry}/stat`)).ms };
    }
  } catch {
    // not Linux
  }
  return undefined;
}
