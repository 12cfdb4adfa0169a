import { constants, readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import type { StrategyParameters } from '@solterm/engine';
import type { BacktestRulesWire } from '../backtest/backtest-rules';
import type { loadPyodide as LoadPyodide, PyodideAPI } from 'pyodide';
import { CANDLE_BYTES, CANDLE_FRAME_TAG } from './candle-buffer';
import { createFrameReader, encodeFrame } from './frames';
import { createBacktestMirror, MAX_INTENT_CHARS } from './python-mirror';
import { createPythonLiveStep, createPythonStrategy } from './python-strategy';

// The Python sandbox process: one per backtest or live run, started ahead of need by
// python-sandbox.ts under Node's permission model (reads only Pyodide's files and this bundle; no
// child processes, workers, native addons or file writes), with code generation from strings
// disallowed, and in a network namespace of its own (no namespace, no Python: python-sandbox.ts
// refuses). Pyodide in Node can run programs (os.system) and reach JavaScript; nothing here is
// trusted by the server: everything in this process, this file included, is the strategy's to
// rewrite. It only answers what on_candle returns; the server computes every fill and figure.
// Protocol, length-prefixed frames (frames.ts) on fd 3: { ready } once loaded; then the server's
// { load: 'backtest' | 'live', code, parameters, seed, rules? }, answered { loaded } or { error }; then
// requests { id, from, to } (a backtest's candles to run the strategy over) answered
// { id, upto, intents: [[index, intent], …] } or { id, error }, or { id, values } (a live candle)
// answered { id } (hold), { id, intent } or { id, error }. A backtest's candles arrive in order as
// binary frames (CANDLE_FRAME_TAG, then CANDLE_FIELDS doubles a candle) before the request that needs
// them, at most SANDBOX_WINDOW past the request's `from`: this process keeps only the candles from
// the latest request's `from` on. The position the strategy sees between intents comes from this
// process's copy of the server's runtime (python-mirror.ts); the server replays the intents itself.

// Pyodide reads the file flags through process.binding, which the permission model refuses.
(process as unknown as { binding: (name: string) => unknown }).binding = (name: string) => {
  if (name === 'constants') return { fs: constants };
  throw new Error(`process.binding('${name}') is not available in the sandbox`);
};

// Cosmetic next to the walls above: the usual attempts fail with a Python error naming the rule,
// instead of Pyodide's fatal error, and the modules that hand Python JavaScript objects are gone.
const LOCKDOWN = `
import os, sys
def _refuse(*args, **kwargs):
    raise PermissionError('strategies cannot run programs, open files or reach the network')
for _name in ('system', 'popen', 'execv', 'execve', 'execl', 'execlp', 'execvp', 'spawnv', 'fork', 'kill'):
    if hasattr(os, _name):
        setattr(os, _name, _refuse)
for _name in ('js', 'pyodide_js', 'pyodide_js._api', 'pyodide.ffi', 'pyodide.code', 'pyodide.http', 'socket', 'subprocess', 'urllib.request', 'http.client'):
    sys.modules[_name] = None
# Any other module that is a JavaScript object (pyodide_js._api was one: Pyodide's internals, its
# file system and stream writers, from which a strategy wrote to the server's channel).
for _name, _module in list(sys.modules.items()):
    if _module is not None and (type(_module).__name__.startswith('Js') or _name.split('.')[0] in ('js', 'pyodide_js')):
        sys.modules[_name] = None
del os, sys, _refuse, _name, _module
`;

async function loadSandbox(): Promise<PyodideAPI> {
  const moduleUrl = process.env.PYODIDE_MODULE_URL;
  if (!moduleUrl) throw new Error('PYODIDE_MODULE_URL is not set');
  const { loadPyodide } = (await import(moduleUrl)) as { loadPyodide: typeof LoadPyodide };
  const quiet = () => {};
  // The interpreter as it stood right after loading (python-snapshot.ts), when the server made one.
  const snapshot = process.env.PYODIDE_SNAPSHOT;
  const pyodide = await loadPyodide({
    jsglobals: Object.create(null) as object,
    stdout: quiet,
    stderr: quiet,
    env: {},
    ...(snapshot ? { _loadSnapshot: readFileSync(snapshot) } : {}),
  });
  for (const name of ['pyodide_js', 'js']) {
    try {
      pyodide.unregisterJsModule(name);
    } catch {
      // not registered
    }
  }
  pyodide.runPython(LOCKDOWN);
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']) {
    Reflect.deleteProperty(globalThis, name);
  }
  return pyodide;
}

/** A strategy error is cut to this many characters here (and again by the server, which trusts nothing). */
const MAX_ERROR_CHARS = 2000;

const channel = new Socket({ fd: 3, readable: true, writable: true });
const send = (message: string) => channel.write(encodeFrame(message));
const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_CHARS);

/** A live candle's answer: the intent's JSON, or none (the strategy holds). */
function answer(id: number, intent: string): string {
  if (intent === '') return `{"id":${id}}`;
  if (intent.length > MAX_INTENT_CHARS) {
    return JSON.stringify({ id, error: `on_candle returned more than ${MAX_INTENT_CHARS} characters` });
  }
  return `{"id":${id},"intent":${intent}}`;
}

interface LoadMessage {
  load: 'backtest' | 'live';
  code: string;
  parameters: StrategyParameters;
  seed: number;
  rules?: BacktestRulesWire;
}
type BacktestRequest = { id: number; from: number; to: number };
type LiveRequest = { id: number; values: (number | null)[] };

const pyodide = await loadSandbox();

// Frames from the server: a load message, then requests (a backtest's candles before those that need them).
let load: LoadMessage | undefined;
let onRequest: ((request: never) => void) | undefined;
/** The backtest's candles received and not yet passed: candle `windowStart` onwards. */
let window: Buffer = Buffer.alloc(0);
let windowStart = 0;

function serve(frame: Buffer): void {
  if (!load) {
    load = JSON.parse(frame.toString()) as LoadMessage;
    start(load);
  } else if (frame[0] === CANDLE_FRAME_TAG) {
    window = Buffer.concat([window, frame.subarray(1)]);
  } else {
    onRequest?.(JSON.parse(frame.toString()) as never);
  }
}

/** The candles [from, to) of a backtest, dropping those before `from`. */
function candlesOf(from: number, to: number): Uint8Array {
  if (from > windowStart) {
    window = window.subarray(Math.min(window.byteLength, (from - windowStart) * CANDLE_BYTES));
    windowStart = from;
  }
  const bytes = (to - from) * CANDLE_BYTES;
  if (from < windowStart || bytes > window.byteLength) {
    throw new Error(`candles ${from} to ${to} were not sent`);
  }
  return window.subarray(0, bytes);
}

function start(init: LoadMessage): void {
  const { code, parameters, seed } = init;
  try {
    if (init.load === 'backtest') {
      const mirror = createBacktestMirror(
        createPythonStrategy({ pyodide, code, parameters, seed }),
        init.rules!,
      );
      onRequest = (request: BacktestRequest) => {
        try {
          const { from, to } = request;
          const { upto, intents } = mirror.advance(from, to, candlesOf(from, to));
          send(`{"id":${request.id},"upto":${upto},"intents":${intents}}`);
        } catch (error) {
          send(JSON.stringify({ id: request.id, error: errorText(error) }));
        }
      };
    } else {
      const step = createPythonLiveStep({ pyodide, code, parameters, seed });
      onRequest = (request: LiveRequest) => {
        try {
          send(answer(request.id, step(request.values.map((value) => value ?? undefined))));
        } catch (error) {
          send(JSON.stringify({ id: request.id, error: errorText(error) }));
        }
      };
    }
  } catch (error) {
    send(JSON.stringify({ error: errorText(error) }));
    return;
  }
  send('{"loaded":true}');
}

const reader = createFrameReader({
  // The server's frames: a load message with the strategy's code, a window's candles, a request.
  maxBytes: 4 * 1024 * 1024,
  onFrame: serve,
  onBroken: () => process.exit(1),
});
channel.on('data', reader.push);
channel.on('end', () => process.exit(0));
channel.on('error', () => process.exit(1));
send('{"ready":true}');
