import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TBacktestResult } from '@solterm/contracts';
import {
  StrategyError,
  type BacktestResult,
  type CandleView,
  type PositionView,
  type StrategyParameters,
} from '@solterm/engine';
import { build } from 'esbuild';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import type { BacktestJob } from '../backtest/backtest-job';
import { stepValues } from './candle-buffer';
import { runPythonBacktest } from './python-backtest';
import { pythonSnapshot } from './python-snapshot';
import {
  loaded,
  probeNetworkWall,
  cpuMs,
  residentMb,
  SandboxFailure,
  startHost,
  strategyMessage,
  type Host,
  type PythonAvailability,
} from './python-process';

export { SANDBOX_WINDOW } from './python-backtest';
export { MAX_STRATEGY_MESSAGE_CHARS, type PythonAvailability } from './python-process';

const HOST_SOURCE = fileURLToPath(new URL('./python-host.ts', import.meta.url));
/** The host as the production build compiled it (dist/python-host.mjs beside the server bundle). */
const BUILT_HOST = fileURLToPath(new URL('./python-host.mjs', import.meta.url));

/** Live Python bots a server runs at once (each is a process of ~150 MB). */
export const MAX_LIVE_PYTHON = 8;
/** Live Python bots of one user at once: a quarter of the server's, so no two accounts take them all. */
export const MAX_LIVE_PYTHON_PER_USER = 2;

/** Time a check of Python code (at save) may take to load it: top-level code that runs longer is refused. */
export const PYTHON_CHECK_MS = 5_000;
/** Time a check waits for a sandbox process to be ready (a snapshot restores Pyodide in ~0.5 s; booting it without one takes ~3 s, more on a busy host). */
const PYTHON_READY_MS = 30_000;

/** What one Python sandbox process may use: its resident memory (Pyodide itself takes ~150 MB). */
export const PYTHON_MEMORY_LIMIT_MB = 512;
const MEMORY_POLL_MS = 50;
/** A backtest's process is stopped past this many times its CPU time limit of wall time… */
const WALL_FACTOR = 3;
/** …or this much past the limit, if later (a loaded machine's share of two cores). */
const WALL_EXTRA_MS = 60_000;

function cpuLimitMessage(ms: number): string {
  return `The strategy exceeded its CPU time limit of ${ms / 1000} s`;
}

/** A live step's answer to request `id`: null to hold, the intent, or the strategy's error. */
function liveAnswerOf(host: Host, message: Record<string, unknown>, id: number): unknown {
  const keys = Object.keys(message).sort().join(',');
  if (message.id !== id) throw host.violation(`an answer to request ${String(message.id)}, not ${id}`);
  if (keys === 'id') return null;
  if (keys === 'error,id' && typeof message.error === 'string') {
    throw new StrategyError(strategyMessage(message.error));
  }
  if (keys === 'id,intent') return message.intent;
  throw host.violation('an answer of the wrong shape');
}

/**
 * Runs user Python, each run in a process of its own (python-host.ts, compiled by the production
 * build or bundled once by esbuild, copied into a private temporary directory so the process needs
 * no TypeScript loader and reads nothing of the project): Node's permission model lets it read only
 * that bundle and Pyodide, code generation from strings is off, and it has no network (a namespace
 * of its own; a host that cannot give one runs no Python: `availability`). The process is hostile by
 * design: it only answers what on_candle returns (a backtest: the intents of a window of candles,
 * python-backtest.ts), over length-prefixed frames on a pipe that the server reads with a bound and
 * a strict shape, and the server computes every fill and figure itself. One process is kept loaded
 * ahead of need (restoring Pyodide from its snapshot takes ~0.5 s, booting it ~3 s), is used for one run and is then ended, so nothing
 * one user's code does outlives its run. Past its time (a backtest: the time limit of its own CPU
 * time, with a wall clock backstop; a live candle: its wall time) or the memory limit the process
 * is killed.
 */
export function createPythonSandbox(options: {
  log: FastifyBaseLogger;
  timeLimitMs: number;
  /** Live Python bots at once (default MAX_LIVE_PYTHON). */
  maxLive?: number;
  /** Live Python bots of one user at once (default MAX_LIVE_PYTHON_PER_USER). */
  maxLivePerUser?: number;
  /** Tests: a host of their own (a hostile one) in place of python-host.ts. */
  hostSource?: string;
}) {
  let bundle: Promise<string> | undefined;
  let bundleDir: string | undefined;
  let spare: Host | undefined;
  let wall: ReturnType<typeof probeNetworkWall> | undefined;
  let closed = false;
  /** Live runs' processes, and whose run each is. */
  const liveHosts = new Map<Host, string>();
  /** Users whose code is being checked (one check each at a time). */
  const checking = new Set<string>();

  function availability(): PythonAvailability {
    wall ??= probeNetworkWall();
    if ('reason' in wall) return { available: false, reason: wall.reason };
    return { available: true, reason: null };
  }

  function requireWall(): string {
    wall ??= probeNetworkWall();
    if ('reason' in wall) throw new AppError('BOTS__PYTHON_UNAVAILABLE');
    return wall.unshare;
  }

  async function bundleHost(): Promise<string> {
    bundleDir = mkdtempSync(join(tmpdir(), 'solterm-python-'));
    const file = join(bundleDir, 'python-host.mjs');
    if (!options.hostSource && existsSync(BUILT_HOST)) {
      copyFileSync(BUILT_HOST, file);
      return file;
    }
    const output = await build({
      entryPoints: [options.hostSource ?? HOST_SOURCE],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      external: ['pyodide'],
      logLevel: 'silent',
    });
    writeFileSync(file, output.outputFiles[0]!.contents);
    return file;
  }

  async function take(): Promise<Host> {
    const unshare = requireWall();
    const [file, snapshot] = await Promise.all([(bundle ??= bundleHost()), pythonSnapshot()]);
    const host = spare ?? startHost(file, unshare, snapshot);
    spare = closed ? undefined : startHost(file, unshare, snapshot);
    host.ref();
    await host.ready;
    return host;
  }

  /**
   * Kills `host` past PYTHON_MEMORY_LIMIT_MB of resident memory and, given `cpuLimitMs`, past that
   * much CPU time from now (its own compute, whatever else loads the machine).
   */
  function watchMemory(host: Host, cpuLimitMs?: number): ReturnType<typeof setInterval> {
    const pid = host.child.pid!;
    const cpuStart = cpuMs(pid);
    const timer = setInterval(() => {
      if (residentMb(pid) > PYTHON_MEMORY_LIMIT_MB) {
        host.fail(`The strategy exceeded its memory limit of ${PYTHON_MEMORY_LIMIT_MB} MB`);
      } else if (cpuLimitMs !== undefined && cpuMs(pid) - cpuStart > cpuLimitMs) {
        host.fail(cpuLimitMessage(cpuLimitMs));
      }
    }, MEMORY_POLL_MS);
    timer.unref();
    return timer;
  }

  return {
    /**
     * Computes a Python job: the process answers the strategy's intents a window of candles at a
     * time, this process computes the backtest (runPythonBacktest). Strategy failures, overruns and a process that
     * breaks its protocol reject with BACKTEST__STRATEGY_FAILED; a host without the network wall
     * with BOTS__PYTHON_UNAVAILABLE.
     */
    async run(
      job: BacktestJob,
      onProgress?: (done: number, total: number) => void,
      onFills?: (fills: BacktestResult['fillLog']) => void,
      /** Kills the process (the run was cancelled). */
      signal?: AbortSignal,
    ): Promise<TBacktestResult> {
      if (job.strategy.kind !== 'python')
        throw new TypeError('the Python sandbox runs Python strategies only');
      const host = await take();
      const onAbort = () => host.fail('The run was cancelled');
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort);
      // The limit counts the process's CPU time, so a loaded machine does not fail a run that fits
      // it; the clock stops one that waits instead of computing.
      const wallMs = Math.max(WALL_FACTOR * options.timeLimitMs, options.timeLimitMs + WALL_EXTRA_MS);
      const timer = setTimeout(
        () =>
          host.fail(
            `The strategy took longer than ${wallMs / 1000} s (its CPU time limit is ${options.timeLimitMs / 1000} s)`,
          ),
        wallMs,
      );
      const memoryWatch = watchMemory(host, options.timeLimitMs);
      try {
        return await runPythonBacktest(host, job, onProgress, onFills);
      } catch (error) {
        if (
          error instanceof SandboxFailure ||
          error instanceof StrategyError ||
          error instanceof RangeError
        ) {
          throw new AppError('BACKTEST__STRATEGY_FAILED', strategyMessage(error.message));
        }
        throw error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(timer);
        clearInterval(memoryWatch);
        host.fail('The run ended');
      }
    },
    /**
     * A live bot's Python, in a sandbox process of its own for the whole run: `step` sends one
     * candle and answers the strategy's intent (or null). A step past `candleMs`, a process past the
     * memory limit, one that dies or breaks its protocol ends the strategy: every later step rejects
     * with StrategyError.
     *
     * @throws StrategyError when the code does not load; AppError BOTS__PYTHON_BUSY past the server's
     *   cap, BOTS__PYTHON_USER_LIMIT past the user's, BOTS__PYTHON_UNAVAILABLE without the network wall.
     */
    async startLive(init: {
      userId: string;
      code: string;
      parameters: StrategyParameters;
      seed: number;
      candleMs: number;
    }) {
      requireWall();
      const perUser = options.maxLivePerUser ?? MAX_LIVE_PYTHON_PER_USER;
      // Checked again here (the start checks the database's runs): a process rebuilding runs after
      // a restart must not let one user take more than a share either.
      if ([...liveHosts.values()].filter((user) => user === init.userId).length >= perUser) {
        throw new AppError('BOTS__PYTHON_USER_LIMIT', pythonUserLimitMessage(perUser));
      }
      if (liveHosts.size >= (options.maxLive ?? MAX_LIVE_PYTHON)) throw new AppError('BOTS__PYTHON_BUSY');
      const host = await take();
      liveHosts.set(host, init.userId);
      const memoryWatch = watchMemory(host);
      const end = (message: string) => {
        clearInterval(memoryWatch);
        liveHosts.delete(host);
        return host.fail(message);
      };
      host.child.once('exit', () => end('The Python sandbox stopped'));
      host.send(
        JSON.stringify({ load: 'live', code: init.code, parameters: init.parameters, seed: init.seed }),
      );
      try {
        await loaded(host);
      } catch (error) {
        end('The strategy did not load');
        if (error instanceof SandboxFailure) throw new StrategyError(error.message);
        throw error;
      }
      let nextId = 1;
      /** Steps run one after another: the channel answers one request at a time. */
      let queue: Promise<unknown> = Promise.resolve();
      const step = async (candle: CandleView, position: PositionView): Promise<unknown> => {
        const id = nextId++;
        const timer = setTimeout(() => end(cpuLimitMessage(init.candleMs)), init.candleMs);
        try {
          host.send(JSON.stringify({ id, values: stepValues(candle, position) }));
          return liveAnswerOf(host, await host.next(), id);
        } catch (error) {
          if (error instanceof SandboxFailure) throw new StrategyError(error.message);
          throw error;
        } finally {
          clearTimeout(timer);
        }
      };
      return {
        step(candle: CandleView, position: PositionView): Promise<unknown> {
          const view = { ...position };
          const result = queue.then(() => step(candle, view));
          queue = result.catch(() => {});
          return result;
        },
        dispose() {
          end('The run ended');
        },
      };
    },
    /**
     * Loads user Python in a sandbox process of its own, as a live run does, to see that it loads and
     * defines on_candle (a bot is checked when saved), then ends the process. One check per user at
     * a time; checks and live runs together stay under the server's cap of processes.
     *
     * @throws StrategyError when the code does not load or takes longer than PYTHON_CHECK_MS;
     *   AppError BOTS__PYTHON_UNAVAILABLE without the network wall, BOTS__PYTHON_USER_LIMIT while
     *   the user's previous check runs, BOTS__PYTHON_BUSY at the server's cap.
     */
    async check(init: { userId: string; code: string; parameters: StrategyParameters }): Promise<void> {
      requireWall();
      if (checking.has(init.userId)) {
        throw new AppError(
          'BOTS__PYTHON_USER_LIMIT',
          'Your previous Python code check is still running. Save again in a moment.',
        );
      }
      if (liveHosts.size + checking.size >= (options.maxLive ?? MAX_LIVE_PYTHON)) {
        throw new AppError('BOTS__PYTHON_BUSY');
      }
      checking.add(init.userId);
      let host: Host | undefined;
      let done = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let memoryWatch: ReturnType<typeof setInterval> | undefined;
      const within = <T>(promise: Promise<T>, ms: number, error: () => Error) =>
        Promise.race([
          promise,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(error()), ms);
          }),
        ]).finally(() => clearTimeout(timer));
      const ready = take().then((taken) => {
        // Past the wait already: this process is not needed.
        if (done) taken.fail('The check ended');
        return (host = taken);
      });
      try {
        // Starting Pyodide is the server's time, not the code's (a spare is usually ready).
        const taken = await within(ready, PYTHON_READY_MS, () => new AppError('BOTS__PYTHON_BUSY'));
        memoryWatch = watchMemory(taken);
        taken.send(JSON.stringify({ load: 'live', code: init.code, parameters: init.parameters, seed: 0 }));
        await within(
          loaded(taken),
          PYTHON_CHECK_MS,
          () =>
            new StrategyError(
              `Loading the strategy took longer than ${PYTHON_CHECK_MS / 1000} s: top-level code should only define on_candle and its helpers`,
            ),
        );
      } catch (error) {
        if (error instanceof SandboxFailure) throw new StrategyError(error.message);
        throw error;
      } finally {
        done = true;
        clearInterval(memoryWatch);
        checking.delete(init.userId);
        host?.fail('The check ended');
      }
    },
    /** Whether this server runs Python strategies (probed once): the network wall is required. */
    availability,
    /** Live Python bots one user may run at once. */
    maxLivePerUser: options.maxLivePerUser ?? MAX_LIVE_PYTHON_PER_USER,
    close(): void {
      closed = true;
      for (const host of liveHosts.keys()) host.fail('The server is closing');
      liveHosts.clear();
      spare?.fail('The server is closing');
      spare = undefined;
      if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
    },
    /** Whether the sandbox processes run without a network (every one does, or none runs). */
    get networkIsolated() {
      return availability().available;
    },
  };
}

export function pythonUserLimitMessage(perUser: number): string {
  return `You can run at most ${perUser} Python bots at once on this server. Stop one to start another.`;
}

export type PythonSandbox = ReturnType<typeof createPythonSandbox>;
