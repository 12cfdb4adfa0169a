import { constants } from 'node:fs';
import { StrategyError, type StrategyParameters } from '@solterm/engine';
import type { loadPyodide as LoadPyodide, PyodideAPI } from 'pyodide';
import { computeBacktest, type BacktestJob } from '../backtest-job';
import { createPythonLiveStep, createPythonStrategy } from './python-strategy';

// The Python sandbox process: one per backtest, started ahead of need by python-sandbox.ts under
// Node's permission model (reads only Pyodide's files and this bundle; no child processes, workers,
// native addons or file writes), with code generation from strings disallowed (so no JavaScript
// object Python can reach turns into `Function('return process')`) and, where the OS allows, in a
// network namespace of its own. Pyodide in Node can run programs (os.system) and reach JavaScript
// (pyodide.ffi); those walls, not Python, are what hold. Protocol over IPC: { ready } once loaded,
// then either one { job } answered by { progress }… and { result } or { error } (a backtest; the
// process is then ended), or { live } answered { live } and then one { id, values } per candle
// answered { id, intent } or { id, error } (a live bot, ended when its run ends).

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
for _name in ('js', 'pyodide_js', 'pyodide.ffi', 'pyodide.code', 'pyodide.http', 'socket', 'subprocess', 'urllib.request', 'http.client'):
    sys.modules[_name] = None
del os, sys, _refuse, _name
`;

async function loadSandbox(): Promise<PyodideAPI> {
  const moduleUrl = process.env.PYODIDE_MODULE_URL;
  if (!moduleUrl) throw new Error('PYODIDE_MODULE_URL is not set');
  const { loadPyodide } = (await import(moduleUrl)) as { loadPyodide: typeof LoadPyodide };
  const quiet = () => {};
  const pyodide = await loadPyodide({
    jsglobals: Object.create(null) as object,
    stdout: quiet,
    stderr: quiet,
    env: {},
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

const send = (message: unknown) => process.send!(message);

const pyodide = await loadSandbox();

/** A live bot: the strategy loaded once, then one { id, values } per candle answered { id, intent }. */
function serveLive(init: { code: string; parameters: StrategyParameters; seed: number }) {
  let step: ReturnType<typeof createPythonLiveStep>;
  try {
    step = createPythonLiveStep({ pyodide, ...init });
  } catch (error) {
    send({ error: { strategy: true, message: (error as Error).message } });
    return;
  }
  send({ live: true });
  process.on('message', (message: { id: number; values: (number | null)[] }) => {
    try {
      send({ id: message.id, intent: step(message.values.map((value) => value ?? undefined)) });
    } catch (error) {
      send({ id: message.id, error: { strategy: true, message: (error as Error).message } });
    }
  });
}

process.once('message', (message: { job?: BacktestJob; live?: Parameters<typeof serveLive>[0] }) => {
  if (message.live) {
    serveLive(message.live);
    return;
  }
  const job = message.job!;
  if (job.strategy.kind !== 'python') throw new Error('the Python sandbox runs Python strategies only');
  const { code, parameters } = job.strategy;
  computeBacktest(
    job,
    (series) => {
      const strategy = createPythonStrategy({ pyodide, code, series, parameters, seed: job.seed });
      return Promise.resolve({ strategy, dispose: () => strategy.dispose() });
    },
    (done, total) => send({ progress: { done, total } }),
  ).then(
    (result) => send({ result }),
    (error: unknown) =>
      send({
        error: {
          strategy: error instanceof StrategyError || error instanceof RangeError,
          message: error instanceof Error ? error.message : String(error),
        },
      }),
  );
});
send({ ready: true });
