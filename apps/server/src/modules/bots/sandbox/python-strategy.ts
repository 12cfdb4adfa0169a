import { StrategyError, type PositionView, type StrategyParameters } from '@solterm/engine';
import type { PyodideAPI } from 'pyodide';
import { CANDLE_FIELDS } from './candle-buffer';

/** The file name user code runs under, so errors name its lines (`strategy.py line 12`). */
const FILE = 'strategy.py';
const CANDLES_PATH = '/tmp/candles.f64';

// Loads user code into a fresh namespace and drives it: a backtest's candles come from a file of doubles
// (time, open, high, low, close, volume per candle) in Pyodide's in-memory file system, rewritten with
// each window of candles the server sends and read once by the next run, so no JavaScript object ever
// reaches Python and Python never holds more than one window (a year of minutes would otherwise sit in
// its heap three times). `random` is seeded (a backtest is reproducible) and the clock refuses.
// Both drivers start with it: no clock (a backtest is reproducible), and the objects a strategy gets.
const PRELUDE = `
import json as _json, random as _random, time as _time

def _no_clock(*args, **kwargs):
    raise RuntimeError('the clock is not available to strategies: use candle.time')

_time.time = _no_clock
_time.time_ns = _no_clock

class Candle:
    __slots__ = ('time', 'open', 'high', 'low', 'close', 'volume')
    def __getitem__(self, key):
        return getattr(self, key)

class Context:
    __slots__ = ('open_lots', 'max_positions', 'last_entry_price', 'params')
    def __getitem__(self, key):
        return getattr(self, key)

def _load_strategy(code, params_json, seed):
    """The user's code in a fresh namespace: its params and its on_candle."""
    _random.seed(seed)
    params = _json.loads(params_json)
    namespace = {'__name__': '__strategy__', 'params': params}
    exec(compile(code, '${FILE}', 'exec'), namespace)
    on_candle = namespace.get('on_candle')
    if not callable(on_candle):
        raise TypeError('the strategy must define def on_candle(candle, ctx)')
    return params, on_candle
`;

const DRIVER = `${PRELUDE}
import array as _array

def _solterm_load(code, params_json, seed):
    params, on_candle = _load_strategy(code, params_json, seed)
    data = _array.array('d')
    data_base = 0

    def run(start, stop, open_lots, max_positions, last_entry_price, base):
        nonlocal data, data_base
        if base is not None:
            data = _array.array('d')
            with open('${CANDLES_PATH}', 'rb') as file:
                data.frombytes(file.read())
            data_base = base
        ctx = Context()
        ctx.open_lots = open_lots
        ctx.max_positions = max_positions
        ctx.last_entry_price = last_entry_price
        ctx.params = params
        for i in range(start, stop):
            k = (i - data_base) * ${CANDLE_FIELDS}
            candle = Candle()
            candle.time = data[k]
            candle.open = data[k + 1]
            candle.high = data[k + 2]
            candle.low = data[k + 3]
            candle.close = data[k + 4]
            candle.volume = data[k + 5]
            intent = on_candle(candle, ctx)
            if intent is not None:
                try:
                    text = _json.dumps(intent, allow_nan=False)
                except (TypeError, ValueError) as error:
                    raise TypeError(f'on_candle must return None or a dict such as {{"action": "buy"}}: {error}') from None
                return f'{i}\\n{text}'
        return ''
    return run
`;

/**
 * A Python failure as the user reads it: the exception's line, and the innermost line of the user's
 * own files (strategy.py, or a module of an uploaded .zip) in its traceback.
 */
export function pythonErrorOf(error: unknown): StrategyError {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.trimEnd().split('\n');
  // The exception's own line (`ValueError: …`); Pyodide may append a hint after it.
  const last = lines.findLast((l) => /^[A-Za-z_][\w.]*(: |$)/.test(l) && !l.startsWith('Traceback')) ?? text;
  if (/^MemoryError/.test(last)) return new StrategyError('MemoryError: the strategy ran out of memory');
  // Library frames carry paths (/lib/python3.14/…); the user's files are bare names.
  const frame = [...text.matchAll(/File "([\w.-]+\.py)", line (\d+)/g)].at(-1);
  return new StrategyError(`${last}${frame ? ` (${frame[1]} line ${frame[2]})` : ''}`);
}

/** User Python as a backtest strategy: answers on_candle over runs of the candles it was last given. */
export interface PythonBatchStrategy {
  /**
   * Gives the strategy candles `from` onwards, CANDLE_FIELDS doubles each (candle-buffer.ts), in
   * place of those it had: later runs read them.
   */
  load(from: number, candles: Uint8Array): void;
  /**
   * The first candle of [from, to) (within the candles loaded) whose on_candle returned an intent,
   * with the intent's JSON, or null.
   */
  onCandles(from: number, to: number, position: PositionView): { index: number; json: string } | null;
  dispose(): void;
}

/**
 * User Python as a batched strategy, in a Pyodide already loaded (and locked down: see
 * python-host.ts). The code defines `def on_candle(candle, ctx)` returning None or
 * `{"action": "buy" | "sell" | "exit", "reason": ...}`; candle has time, open, high, low, close and
 * volume, ctx open_lots, max_positions, last_entry_price (None when flat) and params.
 *
 * @throws StrategyError when the code does not load (syntax error, an exception at top level).
 */
export function createPythonStrategy(options: {
  pyodide: PyodideAPI;
  code: string;
  parameters: StrategyParameters;
  seed: number;
}): PythonBatchStrategy {
  const { pyodide } = options;
  const scope = pyodide.globals.get('dict')();
  let run: { (...args: unknown[]): string; destroy(): void };
  try {
    pyodide.runPython(DRIVER, { globals: scope });
    const load = scope.get('_solterm_load');
    run = load(options.code, JSON.stringify(options.parameters), options.seed >>> 0);
    load.destroy();
  } catch (error) {
    scope.destroy();
    throw pythonErrorOf(error);
  }
  /** The first candle of the candles last loaded, passed to the next run (Python reads them then). */
  let loadedFrom: number | undefined;
  return {
    load(from, candles) {
      try {
        pyodide.FS.writeFile(CANDLES_PATH, candles);
      } catch (error) {
        throw pythonErrorOf(error);
      }
      loadedFrom = from;
    },
    onCandles(from, to, position) {
      let answer: string;
      try {
        const last = Number.isNaN(position.lastEntryPrice) ? undefined : position.lastEntryPrice;
        answer = run(from, to, position.openLots, position.maxPositions, last, loadedFrom);
        loadedFrom = undefined;
      } catch (error) {
        throw pythonErrorOf(error);
      }
      if (answer === '') return null;
      const newline = answer.indexOf('\n');
      return { index: Number(answer.slice(0, newline)), json: answer.slice(newline + 1) };
    },
    dispose() {
      run.destroy();
      scope.destroy();
    },
  };
}

const LIVE_DRIVER = `${PRELUDE}
def _solterm_load_live(code, params_json, seed):
    params, on_candle = _load_strategy(code, params_json, seed)

    def step(time, open_, high, low, close, volume, open_lots, max_positions, last_entry_price):
        candle = Candle()
        candle.time, candle.open, candle.high, candle.low, candle.close, candle.volume = time, open_, high, low, close, volume
        ctx = Context()
        ctx.open_lots, ctx.max_positions, ctx.last_entry_price, ctx.params = open_lots, max_positions, last_entry_price, params
        intent = on_candle(candle, ctx)
        if intent is None:
            return ''
        try:
            return _json.dumps(intent, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(f'on_candle must return None or a dict such as {{"action": "buy"}}: {error}') from None
    return step
`;

/**
 * User Python for a live bot, one candle at a time (the same protocol as in backtests): `step`
 * answers the intent's JSON, or '' to hold.
 *
 * @throws StrategyError when the code does not load.
 */
export function createPythonLiveStep(options: {
  pyodide: PyodideAPI;
  code: string;
  parameters: StrategyParameters;
  seed: number;
}): (values: readonly (number | undefined)[]) => string {
  const { pyodide } = options;
  const scope = pyodide.globals.get('dict')();
  let step: (...args: unknown[]) => string;
  try {
    pyodide.runPython(LIVE_DRIVER, { globals: scope });
    const load = scope.get('_solterm_load_live');
    step = load(options.code, JSON.stringify(options.parameters), options.seed >>> 0);
    load.destroy();
  } catch (error) {
    throw pythonErrorOf(error);
  }
  return (values) => {
    try {
      return step(...values);
    } catch (error) {
      throw pythonErrorOf(error);
    }
  };
}
