import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TBacktestResult } from '@solterm/contracts';
import { StrategyError, type CandleView, type PositionView, type StrategyParameters } from '@solterm/engine';
import { build } from 'esbuild';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import type { BacktestJob } from '../backtest-job';
import { stepValues } from './candle-buffer';

const HOST_SOURCE = fileURLToPath(new URL('./python-host.ts', import.meta.url));
const PYODIDE_MODULE = createRequire(import.meta.url).resolve('pyodide/pyodide.mjs');

/** Live Python bots a server runs at once (each is a process of ~150 MB). */
export const MAX_LIVE_PYTHON = 8;

/** What one Python sandbox process may use: its resident memory (Pyodide itself takes ~150 MB). */
export const PYTHON_MEMORY_LIMIT_MB = 512;
const MEMORY_POLL_MS = 50;

interface HostMessage {
  ready?: true;
  progress?: { done: number; total: number };
  result?: TBacktestResult;
  error?: { strategy: boolean; message: string };
}

/** A started sandbox process and the promise of its `ready`. */
interface Host {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
}

/** True when this OS lets an unprivileged process take a network namespace of its own (Linux). */
function canUnshareNetwork(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync('unshare', ['--user', '--map-root-user', '--net', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

function residentMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs Python backtests, each in a process of its own (python-host.ts, bundled once by esbuild into a
 * private temporary directory so the process needs no TypeScript loader and reads nothing of the
 * project): Node's permission model lets it read only that bundle and Pyodide, code generation from
 * strings is off, and on Linux it has no network. One process is kept loaded ahead of need (Pyodide
 * takes ~2.5 s to start), is used for one job and is then ended, so nothing one user's code does
 * outlives its run. Past the time limit or the memory limit the process is killed.
 */
export function createPythonSandbox(options: {
  log: FastifyBaseLogger;
  timeLimitMs: number;
  /** Live Python bots at once (default MAX_LIVE_PYTHON). */
  maxLive?: number;
}) {
  let bundle: Promise<string> | undefined;
  let bundleDir: string | undefined;
  let spare: Host | undefined;
  let networkIsolated: boolean | undefined;
  let closed = false;
  const liveHosts = new Set<ChildProcess>();

  async function bundleHost(): Promise<string> {
    const output = await build({
      entryPoints: [HOST_SOURCE],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      external: ['pyodide'],
      logLevel: 'silent',
    });
    bundleDir = mkdtempSync(join(tmpdir(), 'solterm-python-'));
    const file = join(bundleDir, 'python-host.mjs');
    writeFileSync(file, output.outputFiles[0]!.contents);
    return file;
  }

  function start(file: string): Host {
    networkIsolated ??= canUnshareNetwork();
    const node = [
      '--experimental-permission',
      `--allow-fs-read=${file}`,
      `--allow-fs-read=${dirname(PYODIDE_MODULE)}/*`,
      '--disallow-code-generation-from-strings',
      '--max-old-space-size=256',
      '--no-warnings',
      file,
    ];
    const [command, args] = networkIsolated
      ? ['unshare', ['--user', '--map-root-user', '--net', process.execPath, ...node]]
      : [process.execPath, node];
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { PYODIDE_MODULE_URL: pathToFileURL(PYODIDE_MODULE).href },
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: HostMessage) => {
        if (!message.ready) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      child.once('exit', (code) =>
        reject(new Error(`the Python sandbox exited (${code}): ${stderr.slice(-500)}`)),
      );
    });
    ready.catch(() => {});
    // A loaded spare must not keep a finished process (a test, a script) alive.
    child.unref();
    child.channel?.unref();
    return { child, ready };
  }

  async function take(): Promise<Host> {
    const file = await (bundle ??= bundleHost());
    const host = spare ?? start(file);
    spare = closed ? undefined : start(file);
    await host.ready;
    return host;
  }

  return {
    /**
     * Computes a Python job. Strategy failures reject with BACKTEST__STRATEGY_FAILED, an overrun with
     * BACKTEST__TIME_LIMIT.
     */
    async run(
      job: BacktestJob,
      onProgress?: (done: number, total: number) => void,
    ): Promise<TBacktestResult> {
      const { child } = await take();
      return new Promise<TBacktestResult>((resolve, reject) => {
        let settled = false;
        const settle = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          clearInterval(memoryWatch);
          child.kill('SIGKILL');
          outcome();
        };
        const timer = setTimeout(
          () =>
            settle(() =>
              reject(
                new AppError(
                  'BACKTEST__STRATEGY_FAILED',
                  `The strategy exceeded its CPU time limit of ${options.timeLimitMs / 1000} s`,
                ),
              ),
            ),
          options.timeLimitMs,
        );
        const memoryWatch = setInterval(() => {
          if (residentMb(child.pid!) <= PYTHON_MEMORY_LIMIT_MB) return;
          settle(() =>
            reject(
              new AppError(
                'BACKTEST__STRATEGY_FAILED',
                `The strategy exceeded its memory limit of ${PYTHON_MEMORY_LIMIT_MB} MB`,
              ),
            ),
          );
        }, MEMORY_POLL_MS);
        child.on('message', (message: HostMessage) => {
          if (message.progress) onProgress?.(message.progress.done, message.progress.total);
          else if (message.result) settle(() => resolve(message.result!));
          else if (message.error) {
            const { strategy, message: text } = message.error;
            settle(() =>
              reject(strategy ? new AppError('BACKTEST__STRATEGY_FAILED', text) : new Error(text)),
            );
          }
        });
        child.once('exit', (code, signal) =>
          settle(() =>
            reject(
              new AppError(
                'BACKTEST__STRATEGY_FAILED',
                `The Python sandbox stopped (${signal ?? code}); the strategy did something it may not`,
              ),
            ),
          ),
        );
        child.send({ job });
      });
    },
    /**
     * A live bot's Python, in a sandbox process of its own for the whole run: `step` sends one
     * candle and answers the strategy's intent (or null). A step past `candleMs`, a process past the
     * memory limit or one that dies ends the strategy: every later step rejects with StrategyError.
     *
     * @throws StrategyError when the code does not load; AppError BOTS__PYTHON_BUSY past the cap.
     */
    async startLive(init: { code: string; parameters: StrategyParameters; seed: number; candleMs: number }) {
      if (liveHosts.size >= (options.maxLive ?? MAX_LIVE_PYTHON)) throw new AppError('BOTS__PYTHON_BUSY');
      const { child } = await take();
      liveHosts.add(child);
      let failure: StrategyError | undefined;
      let nextId = 1;
      const pending = new Map<
        number,
        { resolve: (intent: unknown) => void; reject: (error: unknown) => void }
      >();
      const fail = (error: StrategyError) => {
        failure ??= error;
        clearInterval(memoryWatch);
        liveHosts.delete(child);
        child.kill('SIGKILL');
        for (const waiting of pending.values()) waiting.reject(failure);
        pending.clear();
      };
      const memoryWatch = setInterval(() => {
        if (residentMb(child.pid!) > PYTHON_MEMORY_LIMIT_MB) {
          fail(new StrategyError(`The strategy exceeded its memory limit of ${PYTHON_MEMORY_LIMIT_MB} MB`));
        }
      }, MEMORY_POLL_MS);
      memoryWatch.unref();
      child.once('exit', () => fail(new StrategyError('The Python sandbox stopped')));
      const loaded = new Promise<void>((resolve, reject) => {
        child.on('message', (message: HostMessage & { live?: true; id?: number; intent?: string }) => {
          if (message.live) return resolve();
          if (message.id === undefined) {
            if (message.error) reject(new StrategyError(message.error.message));
            return;
          }
          const waiting = pending.get(message.id);
          pending.delete(message.id);
          if (!waiting) return;
          if (message.error) waiting.reject(new StrategyError(message.error.message));
          else waiting.resolve(message.intent ? (JSON.parse(message.intent) as unknown) : null);
        });
      });
      child.send({ live: { code: init.code, parameters: init.parameters, seed: init.seed } });
      try {
        await loaded;
      } catch (error) {
        fail(error as StrategyError);
        throw error;
      }
      return {
        step(candle: CandleView, position: PositionView): Promise<unknown> {
          if (failure) return Promise.reject(failure);
          const id = nextId++;
          return new Promise((resolve, reject) => {
            const timer = setTimeout(
              () =>
                fail(
                  new StrategyError(`The strategy exceeded its CPU time limit of ${init.candleMs / 1000} s`),
                ),
              init.candleMs,
            );
            pending.set(id, {
              resolve: (intent) => (clearTimeout(timer), resolve(intent)),
              reject: (error) => (clearTimeout(timer), reject(error)),
            });
            child.send({
              id,
              values: stepValues(candle, position),
            });
          });
        },
        dispose() {
          fail(new StrategyError('The run ended'));
        },
      };
    },
    close(): void {
      closed = true;
      for (const child of liveHosts) child.kill('SIGKILL');
      liveHosts.clear();
      spare?.child.kill('SIGKILL');
      spare = undefined;
      if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
    },
    /** Whether the sandbox processes run without a network (known once one has started). */
    get networkIsolated() {
      return networkIsolated;
    },
  };
}

export type PythonSandbox = ReturnType<typeof createPythonSandbox>;
