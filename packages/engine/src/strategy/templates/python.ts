// The built-in strategies as readable Python (3, standard library): the editor offers them as
// templates, and the parity tests run them in the Pyodide sandbox against the engine's own. They do
// the arithmetic in the engine's order, so the doubles, and the trades, are identical.
// A strategy defines on_candle(candle, ctx) and returns None or {"action": "buy" | "sell" | "exit",
// "reason": ...}. candle: time, open, high, low, close, volume; ctx: open_lots, max_positions,
// last_entry_price (None when flat), params. State lives in module-level variables.

const SMA = `class Sma:
    """Simple moving average over the last \`period\` closes: a ring buffer and a running total,
    re-summed once per window so rounding never drifts. None until it has \`period\` values."""

    def __init__(self, period):
        self.period = int(period)
        self.window = [0.0] * self.period
        self.index = 0
        self.count = 0
        self.total = 0.0

    def update(self, x):
        old = self.window[self.index]
        self.window[self.index] = x
        self.index = 0 if self.index + 1 == self.period else self.index + 1
        if self.count < self.period:
            self.count += 1
            self.total += x
        else:
            self.total += x - old
        if self.index == 0:
            self.total = 0.0
            for value in self.window:
                self.total += value
        return self.total / self.period if self.count == self.period else None`;

const EMA = `class Ema:
    """Exponential moving average (alpha = 2 / (period + 1)), seeded with the SMA of its first values."""

    def __init__(self, period):
        self.alpha = 2 / (int(period) + 1)
        self.seed = Sma(period)
        self.value = None

    def update(self, x):
        if self.value is None:
            self.value = self.seed.update(x)
        else:
            self.value += self.alpha * (x - self.value)
        return self.value`;

const RSI = `class Rsi:
    """Relative strength index with Wilder's smoothing (0-100); None until it has period + 1 closes."""

    def __init__(self, period):
        self.period = int(period)
        self.previous = None
        self.count = 0
        self.gain = 0.0
        self.loss = 0.0
        self.value = None

    def update(self, x):
        if self.previous is None:
            self.previous = x
            return self.value
        change = x - self.previous
        self.previous = x
        up = change if change > 0 else 0.0
        down = -change if change < 0 else 0.0
        if self.count < self.period:
            self.gain += up / self.period
            self.loss += down / self.period
            self.count += 1
            if self.count < self.period:
                return self.value
        else:
            self.gain = (self.gain * (self.period - 1) + up) / self.period
            self.loss = (self.loss * (self.period - 1) + down) / self.period
        if self.loss == 0:
            self.value = 50.0 if self.gain == 0 else 100.0
        else:
            self.value = 100 - 100 / (1 + self.gain / self.loss)
        return self.value`;

/** A crossover of two averages of class `maker` (Sma or Ema). */
const crossover = (maker: string, name: string, short: number, long: number) => `
short_average = ${maker}(params.get("short_window", ${short}))
long_average = ${maker}(params.get("long_window", ${long}))
previous_diff = None


def on_candle(candle, ctx):
    global previous_diff
    short_value = short_average.update(candle.close)
    long_value = long_average.update(candle.close)
    diff = None if short_value is None or long_value is None else short_value - long_value
    before, previous_diff = previous_diff, diff
    if diff is None or before is None:
        return None
    if before <= 0 and diff > 0 and ctx.open_lots < ctx.max_positions:
        return {"action": "buy", "reason": "${name} short crossed above long"}
    if before >= 0 and diff < 0 and ctx.open_lots > 0:
        return {"action": "exit", "reason": "${name} short crossed below long"}
    return None
`;

const rsiStrategy = (name: string, period: number, oversold: number, overbought: number) => `
oversold = params.get("oversold", ${oversold})
overbought = params.get("overbought", ${overbought})
strength = Rsi(params.get("rsi_period", ${period}))


def on_candle(candle, ctx):
    value = strength.update(candle.close)
    if value is None:
        return None
    if value < oversold and ctx.open_lots < ctx.max_positions:
        return {"action": "buy", "reason": "${name} oversold"}
    if value > overbought and ctx.open_lots > 0:
        return {"action": "exit", "reason": "${name} overbought"}
    return None
`;

export const PYTHON_TEMPLATES = {
  sma_crossover: `# SMA crossover: buy when the short average crosses above the long one, exit when it crosses below.
# params: short_window (5), long_window (20).


${SMA}

${crossover('Sma', 'SMA', 5, 20)}`,
  ema_crossover: `# EMA crossover: the SMA crossover on exponential averages, which react sooner and trade more.
# params: short_window (9), long_window (21).


${SMA}


${EMA}

${crossover('Ema', 'EMA', 9, 21)}`,
  rsi_reversion: `# RSI mean reversion: buy when RSI falls below the oversold level, exit above the overbought one.
# params: rsi_period (14), oversold (30), overbought (70).


${RSI}

${rsiStrategy('RSI', 14, 30, 70)}`,
  bollinger_breakout: `# Bollinger breakout: buy when the close breaks above the upper band, exit when it falls back below
# the middle. params: period (20), width (2 standard deviations).
import math


class Bands:
    """Mean and squared deviations of the last \`period\` closes by Welford's sliding update,
    recomputed from the window once per period (sliding updates drift otherwise)."""

    def __init__(self, period, width):
        self.period = int(period)
        self.width = width
        self.window = [0.0] * self.period
        self.index = 0
        self.count = 0
        self.mean = 0.0
        self.squares = 0.0
        self.middle = None
        self.upper = None

    def update(self, x):
        old = self.window[self.index]
        self.window[self.index] = x
        self.index = 0 if self.index + 1 == self.period else self.index + 1
        if self.count < self.period:
            self.count += 1
            delta = x - self.mean
            self.mean += delta / self.count
            self.squares += delta * (x - self.mean)
        else:
            before = self.mean
            self.mean += (x - old) / self.period
            self.squares += (x - old) * (x - self.mean + old - before)
        if self.index == 0:
            total = 0.0
            for value in self.window:
                total += value
            self.mean = total / self.period
            self.squares = 0.0
            for value in self.window:
                deviation = value - self.mean
                self.squares += deviation * deviation
        if self.count < self.period:
            return
        self.middle = self.mean
        self.upper = self.middle + self.width * math.sqrt(max(0.0, self.squares / self.period))


bands = Bands(params.get("period", 20), params.get("width", 2))


def on_candle(candle, ctx):
    bands.update(candle.close)
    if bands.upper is None:
        return None
    if candle.close > bands.upper and ctx.open_lots < ctx.max_positions:
        return {"action": "buy", "reason": "close above the upper band"}
    if candle.close < bands.middle and ctx.open_lots > 0:
        return {"action": "exit", "reason": "close below the middle band"}
    return None
`,
  scalper: `# RSI scalper: a short-horizon RSI that buys quick dips and takes small gains; pair it with a tight
# stop loss and take profit. params: rsi_period (7), oversold (25), overbought (60).


${RSI}

${rsiStrategy('scalper RSI', 7, 25, 60)}`,
  dca: `# Dollar-cost averaging: buy one lot every N candles up to max positions; the take profit and stop
# loss close them. params: every_candles (24).
every = int(params.get("every_candles", 24))
seen = 0


def on_candle(candle, ctx):
    global seen
    seen += 1
    if (seen - 1) % every != 0:
        return None
    if ctx.open_lots < ctx.max_positions:
        return {"action": "buy", "reason": "scheduled buy"}
    return None
`,
  grid: `# Grid: buy a lot each time the price falls one step below the last entry (or the anchor when flat),
# sell a lot one step above the last entry. params: grid_step_percentage (1).
step = params.get("grid_step_percentage", 1) / 100
anchor = None


def on_candle(candle, ctx):
    global anchor
    if anchor is None:
        anchor = candle.close
    reference = ctx.last_entry_price if ctx.open_lots > 0 else anchor
    if ctx.open_lots > 0 and candle.close >= reference * (1 + step):
        anchor = candle.close
        return {"action": "sell", "reason": "one grid step above the last entry"}
    if candle.close <= reference * (1 - step) and ctx.open_lots < ctx.max_positions:
        return {"action": "buy", "reason": "one grid step down"}
    # Flat and the price ran away upwards: the grid follows it.
    if ctx.open_lots == 0 and candle.close >= anchor * (1 + step):
        anchor = candle.close
    return None
`,
} as const;

export type PythonTemplate = keyof typeof PYTHON_TEMPLATES;
