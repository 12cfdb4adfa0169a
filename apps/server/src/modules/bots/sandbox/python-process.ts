import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StrategyError } from '@solterm/engine';
import { createFrameReader, encodeFrame } from './frames';

// One Python sandbox process as the server sees it: started behind the network wall, read through
// its channel only (bounded frames of one strict shape), killed when it breaks the protocol.

export const PYODIDE_MODULE = createRequire(import.meta.url).resolve('pyodide/pyodide.mjs');

/** Bound of one frame from a sandbox process (an answer: intents of at most 48 KB, or an error). */
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
export function probeNetworkWall(): { unshare: string } | { reason: string } {
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

export function residentMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Linux's /proc clock ticks a second (USER_HZ, fixed at 100 for user space). */
const TICKS_PER_SECOND = 100;

/** CPU time process `pid` has used (all its threads, user and system), ms; 0 once it has ended. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the 3rd, utime the 14th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
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
export interface Host {
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

/** Starts `file` (the host bundle) behind the walls; given `snapshot`, it restores Pyodide from it. */
export function startHost(file: string, unshare: string, snapshot?: string): Host {
  const node = [
    '--experimental-permission',
    `--allow-fs-read=${file}`,
    `--allow-fs-read=${dirname(PYODIDE_MODULE)}/*`,
    ...(snapshot ? [`--allow-fs-read=${snapshot}`] : []),
    '--disallow-code-generation-from-strings',
    '--max-old-space-size=256',
    '--no-warnings',
    file,
  ];
  // Plain pipes, never Node's IPC: fd 3 carries frames both ways, and nothing else the process can
  // write reaches a parser of the server's but createFrameReader.
  const child = spawn(unshare, ['--user', '--map-root-user', '--net', process.execPath, ...node], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: {
      PYODIDE_MODULE_URL: pathToFileURL(PYODIDE_MODULE).href,
      ...(snapshot ? { PYODIDE_SNAPSHOT: snapshot } : {}),
    },
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

/** The answer to a load message: { loaded }, or the strategy's error (its code does not load). */
export async function loaded(host: Host): Promise<void> {
  const message = await host.next();
  const keys = Object.keys(message).join(',');
  if (keys === 'loaded' && message.loaded === true) return;
  if (keys === 'error' && typeof message.error === 'string') {
    throw new StrategyError(strategyMessage(message.error));
  }
  throw host.violation('an answer to its load of the wrong shape');
}
