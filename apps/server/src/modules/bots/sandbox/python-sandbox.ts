import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TBacktestResult } from '@solterm/contracts';
import {
  candleSeriesOf,
  StrategyError,
  type BacktestResult,
  type CandleView,
  type PositionView,
  type StrategyParameters,
} from '@solterm/engine';
import { build } from 'esbuild';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import { computeBacktestAsync, type BacktestJob } from '../backtest/backtest-job';
import { candleFrames, stepValues } from './candle-buffer';
import { createFrameReader, encodeFrame } from './frames';

const HOST_SOURCE = fileURLToPath(new URL('./python-host.ts', import.meta.url));
/** The host as the production build compiled it (dist/python-host.mjs beside the server bundle). */
const BUILT_HOST = fileURLToPath(new URL('./python-host.mjs', import.meta.url));
const PYODIDE_MODULE = createRequire(import.meta.url).resolve('pyodide/pyodide.mjs');

/** Live Python bots a server runs at once (each is a process of ~150 MB). */
export const MAX_LIVE_PYTHON = 8;
/** Live Python bots of one user at once: a quarter of the server's, so no two accounts take them all. */
export const MAX_LIVE_PYTHON_PER_USER = 2;

/** Time a check of Python code (at save) may take to load it: top-level code that runs longer is refused. */
export const PYTHON_CHECK_MS = 5_000;
/** Time a check waits for a sandbox process to be ready (Pyodide takes ~2.5 s, more on a busy host). */
const PYTHON_READY_MS = 30_000;

/** What one Python sandbox process may use: its resident memory (Pyodide itself takes ~150 MB). */
export const PYTHON_MEMORY_LIMIT_MB = 512;
const MEMORY_POLL_MS = 50;
/**
 * Candles a backtest's sandbox process holds at most (~400 KB): they are streamed to it a window at a
 * time, in frames of 64 KiB at most, never the whole range (a year of minutes is 25 MB of doubles,
 * which the process and Python's heap held three times over before).
 */
export const SANDBOX_WINDOW = 8192;

/** Bound of one frame from a sandbox process (an answer: an intent of at most 16 KB, or an error). */
const MAX_ANSWER_BYTES = 64 * 1024;
/** A strategy's error message is cut to this many characters before a response or a log line has it. */
export const MAX_STRATEGY_MESSAGE_CHARS = 2000;
const STDERR_KEPT_CHARS = 4000;

export function strategyMessage(text: string): string {
  return text.length > MAX_STRATEGY_MESSAGE_CHARS ? `${text.slice(0, MAX_STRATEGY_MESSAGE_CHARS)}…` : text;
}

/** Whether this server runs Python strategies, and if not what its host lacks. */
export type PythonAvailability = { available: true; reason: null } | { available: false; reason: string };

/**
 * The network wall: `unshare` (util-linux) giving the sandbox an empty network namespace of its own,
 * in an unprivileged user namespace. Probed once; without it, Python is refused (Node's permission
 * model does not restrict sockets, so there is no fallback).
 */
function probeNetworkWall(): { unshare: string } | { reason: string } {
  if (process.platform !== 'linux') {
    return { reason: `network namespaces need Linux; this host is ${process.platform}` };
  }
  const unshare = (process.env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((dir) => join(dir, 'unshare'))
    .find((path) => {
      try {
        accessSync(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  if (!unshare) return { reason: 'unshare (util-linux) is not installed' };
  const probe = spawnSync(unshare, ['--user', '--map-root-user', '--net', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 10_000,
  });
  if (probe.status === 0) return { unshare };
  const said = probe.stderr?.toString().trim().split('\n')[0]?.slice(0, 200);
  return {
    reason: `this host does not permit unprivileged user and network namespaces (unshare --user --net exited ${probe.status ?? probe.signal ?? probe.error?.message}${said ? `: ${said}` : ''})`,
  };
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

/** A sandbox process ended for what it did (or did not do): the message says what, for the user. */
export class SandboxFailure extends Error {
  override readonly name = 'SandboxFailure';
}

/**
 * A started sandbox process, seen through its channel only: frames the server reads defensively.
 * Nothing the process writes can throw here; a frame that is not the one JSON object the server is
 * waiting for ends the process (`fail`), and every wait from then on rejects with why.
 */
interface Host {
  readonly child: ChildProcess;
  /** Its { ready } (Pyodide loaded); rejects when the process dies first. */
  readonly ready: Promise<void>;
  send(payload: string | Uint8Array): void;
  /** The next frame, a JSON object; one wait at a time. */
  next(): Promise<Record<string, unknown>>;
  /** Ends the process; waits reject with `message` (the first reason given is kept). */
  fail(message: string): SandboxFailure;
  /** Ends the process broken: it wrote what the protocol does not allow. */
  violation(what: string): SandboxFailure;
  /** Keeps this process (a script, a test) alive while the host is in use (a spare does not). */
  ref(): void;
}

function startHost(file: string, unshare: string): Host {
  const node = [
    '--experimental-permission',
    `--allow-fs-read=${file}`,
    `--allow-fs-read=${dirname(PYODIDE_MODULE)}/*`,
    '--disallow-code-generation-from-strings',
    '--max-old-space-size=256',
    '--no-warnings',
    file,
  ];
  // Plain pipes, never Node's IPC: fd 3 carries frames both ways, and nothing else the process can
  // write reaches a parser of the server's but createFrameReader.
  const child = spawn(unshare, ['--user', '--map-root-user', '--net', process.execPath, ...node], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: { PYODIDE_MODULE_URL: pathToFileURL(PYODIDE_MODULE).href },
  });
  const channel = child.stdio[3] as Socket;
  let stderr = '';
  let isReady = false;
  let failure: SandboxFailure | undefined;
  let waiter:
    { resolve: (frame: Record<string, unknown>) => void; reject: (error: unknown) => void } | undefined;
  let onReady: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (onReady = { resolve, reject }));
  ready.catch(() => {});

  const fail = (message: string): SandboxFailure => {
    if (!failure) {
      failure = new SandboxFailure(strategyMessage(message));
      reader.stop();
      child.kill('SIGKILL');
      onReady?.reject(new Error(`the Python sandbox ended before it was ready: ${message}`));
    }
    const pending = waiter;
    waiter = undefined;
    pending?.reject(failure);
    return failure;
  };
  const violation = (what: string) =>
    fail(`The Python sandbox broke its protocol (${what}); the strategy was stopped`);

  const reader = createFrameReader({
    maxBytes: MAX_ANSWER_BYTES,
    onFrame(frame) {
      let message: unknown;
      try {
        message = JSON.parse(frame.toString('utf8'));
      } catch {
        violation('a frame that is not JSON');
        return;
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        violation('a frame that is not a JSON object');
        return;
      }
      const object = message as Record<string, unknown>;
      if (!isReady) {
        if (Object.keys(object).length !== 1 || object.ready !== true) {
          violation('a first frame other than { ready }');
          return;
        }
        isReady = true;
        onReady?.resolve();
        return;
      }
      const pending = waiter;
      if (!pending) {
        violation('a frame it was not asked for');
        return;
      }
      waiter = undefined;
      pending.resolve(object);
    },
    onBroken: (reason) => violation(reason),
  });
  channel.on('data', (chunk: Buffer) => reader.push(chunk));
  channel.on('error', () => fail('The Python sandbox stopped (its channel failed)'));
  child.on('error', (error) => fail(`The Python sandbox could not run: ${error.message}`));
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_KEPT_CHARS) stderr += chunk.toString();
  });
  child.once('exit', (code, signal) => {
    if (!isReady) {
      onReady?.reject(new Error(`the Python sandbox exited (${signal ?? code}): ${stderr.slice(-500)}`));
    }
    fail(`The Python sandbox stopped (${signal ?? code}); the strategy did something it may not`);
  });
  // A loaded spare must not keep a finished process (a test, a script) alive.
  child.unref();
  channel.unref();
  (child.stderr as Socket).unref();
  return {
    child,
    ready,
    send(payload) {
      if (!failure) channel.write(encodeFrame(payload));
    },
    next() {
      if (failure) return Promise.reject(failure);
      if (waiter) return Promise.reject(new Error('one wait at a time on a sandbox channel'));
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
    fail,
    violation,
    ref() {
      child.ref();
      channel.ref();
    },
  };
}

/**
 * What a sandbox process answered to request `id`: null to hold, the candle it acts on (a backtest:
 * in [from, to)) and its intent, or a StrategyError with the strategy's error. Anything else is a
 * protocol violation and ends the process.
 */
function answerOf(
  host: Host,
  message: Record<string, unknown>,
  id: number,
  range: { from: number; to: number } | null,
): { index: number; intent: unknown } | null {
  const keys = Object.keys(message).sort().join(',');
  if (message.id !== id) throw host.violation(`an answer to request ${String(message.id)}, not ${id}`);
  if (keys === 'id') return null;
  if (keys === 'error,id' && typeof message.error === 'string') {
    throw new StrategyError(strategyMessage(message.error));
  }
  if (range) {
    const { index } = message;
    if (
      keys === 'id,index,intent' &&
      typeof index === 'number' &&
      Number.isInteger(index) &&
      index >= range.from &&
      index < range.to
    ) {
      return { index, intent: message.intent };
    }
  } else if (keys === 'id,intent') {
    return { index: 0, intent: message.intent };
  }
  throw host.violation('an answer of the wrong shape');
}

/** The answer to a load message: { loaded }, or the strategy's error (its code does not load). */
async function loaded(host: Host): Promise<void> {
  const message = await host.next();
  const keys = Object.keys(message).join(',');
  if (keys === 'loaded' && message.loaded === true) return;
  if (keys === 'error' && typeof message.error === 'string') {
    throw new StrategyError(strategyMessage(message.error));
  }
  throw host.violation('an answer to its load of the wrong shape');
}

/**
 * Runs user Python, each run in a process of its own (python-host.ts, compiled by the production
 * build or bundled once by esbuild, copied into a private temporary directory so the process needs
 * no TypeScript loader and reads nothing of the project): Node's permission model lets it read only that bundle and Pyodide, code generation from
 * strings is off, and it has no network (a namespace of its own; a host that cannot give one runs
 * no Python: `availability`). The process is hostile by design: it only answers what on_candle
 * returns, over length-prefixed frames on a pipe that the server reads with a bound and a strict
 * shape, and the server computes every fill and figure itself. One process is kept loaded ahead of
 * need (Pyodide takes ~2.5 s to start), is used for one run and is then ended, so nothing one user's
 * code does outlives its run. Past the time limit or the memory limit the process is killed.
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
    const file = await (bundle ??= bundleHost());
    const host = spare ?? startHost(file, unshare);
    spare = closed ? undefined : startHost(file, unshare);
    host.ref();
    await host.ready;
    return host;
  }

  /** Kills `host` past PYTHON_MEMORY_LIMIT_MB of resident memory. */
  function watchMemory(host: Host): ReturnType<typeof setInterval> {
    const timer = setInterval(() => {
      if (residentMb(host.child.pid!) > PYTHON_MEMORY_LIMIT_MB) {
        host.fail(`The strategy exceeded its memory limit of ${PYTHON_MEMORY_LIMIT_MB} MB`);
      }
    }, MEMORY_POLL_MS);
    timer.unref();
    return timer;
  }

  return {
    /**
     * Computes a Python job: the process answers on_candle for runs of candles, this process
     * computes the rest (computeBacktestAsync). Strategy failures, overruns and a process that
     * breaks its protocol reject with BACKTEST__STRATEGY_FAILED; a host without the network wall
     * with BOTS__PYTHON_UNAVAILABLE.
     */
    async run(
      job: BacktestJob,
      onProgress?: (done: number, total: number) => void,
      onFills?: (fills: BacktestResult['fills']) => void,
      /** Kills the process (the run was cancelled). */
      signal?: AbortSignal,
    ): Promise<TBacktestResult> {
      if (job.strategy.kind !== 'python')
        throw new TypeError('the Python sandbox runs Python strategies only');
      const { code, parameters } = job.strategy;
      const host = await take();
      const onAbort = () => host.fail('The run was cancelled');
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort);
      const timer = setTimeout(
        () => host.fail(`The strategy exceeded its CPU time limit of ${options.timeLimitMs / 1000} s`),
        options.timeLimitMs,
      );
      const memoryWatch = watchMemory(host);
      try {
        const series = candleSeriesOf(job.candles);
        host.send(JSON.stringify({ load: 'backtest', code, parameters, seed: job.seed }));
        await loaded(host);
        let id = 0;
        /** Candles sent to the process: it has [0, sent) and keeps those from the latest request on. */
        let sent = 0;
        /** One request over at most SANDBOX_WINDOW candles from `from`, its candles sent first. */
        const ask = async (from: number, to: number, position: PositionView) => {
          id += 1;
          for (const frame of candleFrames(series, sent, to)) host.send(frame);
          sent = Math.max(sent, to);
          const last = position.lastEntryPrice;
          host.send(
            JSON.stringify({
              id,
              from,
              to,
              lots: position.openLots,
              max: position.maxPositions,
              last: Number.isNaN(last) ? null : last,
            }),
          );
          return answerOf(host, await host.next(), id, { from, to });
        };
        return await computeBacktestAsync(
          job,
          series,
          {
            batched: true,
            // A run longer than the window is asked a window at a time (nothing changes the
            // position between them: the engine's run ends before any stop or take profit).
            async onCandles(from, to, position) {
              for (let start = from; start < to; start += SANDBOX_WINDOW) {
                const hit = await ask(start, Math.min(to, start + SANDBOX_WINDOW), position);
                if (hit) return hit;
              }
              return null;
            },
          },
          onProgress,
          onFills,
        );
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
        const timer = setTimeout(
          () => end(`The strategy exceeded its CPU time limit of ${init.candleMs / 1000} s`),
          init.candleMs,
        );
        try {
          host.send(JSON.stringify({ id, values: stepValues(candle, position) }));
          return answerOf(host, await host.next(), id, null)?.intent ?? null;
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
