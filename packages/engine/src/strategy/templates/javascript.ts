// The built-in strategies as readable JavaScript: the editor offers them as templates, and the parity
// tests run them in the sandbox against the engine's own (same arithmetic, so the same trades).
// A strategy defines onCandle(candle, ctx) and returns null or { action: 'buy' | 'sell' | 'exit', reason }.
// ctx: { openLots, maxPositions, lastEntryPrice, params }. State lives in top-level variables.

const SMA = `// Simple moving average over the last \`period\` closes (a ring buffer and a running sum,
// re-summed once per window so rounding never drifts). NaN until it has \`period\` values.
function sma(period) {
  const window = new Float64Array(period);
  let index = 0, count = 0, sum = 0;
  return function update(x) {
    const old = window[index];
    window[index] = x;
    index = index + 1 === period ? 0 : index + 1;
    if (count < period) { count += 1; sum += x; } else { sum += x - old; }
    if (index === 0) { sum = 0; for (const v of window) sum += v; }
    return count === period ? sum / period : NaN;
  };
}`;

const EMA = `// Exponential moving average (alpha = 2 / (period + 1)), seeded with the SMA of its first values.
function ema(period) {
  const alpha = 2 / (period + 1);
  const seed = sma(period);
  let value = NaN;
  return function update(x) {
    if (Number.isNaN(value)) { value = seed(x); return value; }
    value += alpha * (x - value);
    return value;
  };
}`;

const RSI = `// Relative strength index with Wilder's smoothing (0-100); NaN until it has period + 1 closes.
function rsi(period) {
  let previous = NaN, count = 0, gain = 0, loss = 0, value = NaN;
  return function update(x) {
    if (Number.isNaN(previous)) { previous = x; return value; }
    const change = x - previous;
    previous = x;
    const up = change > 0 ? change : 0;
    const down = change < 0 ? -change : 0;
    if (count < period) {
      gain += up / period;
      loss += down / period;
      count += 1;
      if (count < period) return value;
    } else {
      gain = (gain * (period - 1) + up) / period;
      loss = (loss * (period - 1) + down) / period;
    }
    value = loss === 0 ? (gain === 0 ? 50 : 100) : 100 - 100 / (1 + gain / loss);
    return value;
  };
}`;

/** A crossover of two averages made by `maker` (sma or ema). */
const crossover = (maker: string, name: string, short: number, long: number) => `
const short = ${maker}(params.short_window ?? ${short});
const long = ${maker}(params.long_window ?? ${long});
let previousDiff = NaN;

function onCandle(candle, ctx) {
  const diff = short(candle.close) - long(candle.close);
  const before = previousDiff;
  previousDiff = diff;
  if (Number.isNaN(diff) || Number.isNaN(before)) return null;
  if (before <= 0 && diff > 0 && ctx.openLots < ctx.maxPositions) {
    return { action: 'buy', reason: '${name} short crossed above long' };
  }
  if (before >= 0 && diff < 0 && ctx.openLots > 0) {
    return { action: 'exit', reason: '${name} short crossed below long' };
  }
  return null;
}
`;

const rsiStrategy = (name: string, period: number, oversold: number, overbought: number) => `
const period = params.rsi_period ?? ${period};
const oversold = params.oversold ?? ${oversold};
const overbought = params.overbought ?? ${overbought};
const strength = rsi(period);

function onCandle(candle, ctx) {
  const value = strength(candle.close);
  if (Number.isNaN(value)) return null;
  if (value < oversold && ctx.openLots < ctx.maxPositions) return { action: 'buy', reason: '${name} oversold' };
  if (value > overbought && ctx.openLots > 0) return { action: 'exit', reason: '${name} overbought' };
  return null;
}
`;

export const JAVASCRIPT_TEMPLATES = {
  sma_crossover: `// SMA crossover: buy when the short average crosses above the long one, exit when it crosses below.
// params: short_window (5), long_window (20).
${SMA}
${crossover('sma', 'SMA', 5, 20)}`,
  ema_crossover: `// EMA crossover: the SMA crossover on exponential averages, which react sooner and trade more.
// params: short_window (9), long_window (21).
${SMA}

${EMA}
${crossover('ema', 'EMA', 9, 21)}`,
  rsi_reversion: `// RSI mean reversion: buy when RSI falls below the oversold level, exit above the overbought one.
// params: rsi_period (14), oversold (30), overbought (70).
${RSI}
${rsiStrategy('RSI', 14, 30, 70)}`,
  bollinger_breakout: `// Bollinger breakout: buy when the close breaks above the upper band, exit when it falls back below
// the middle. params: period (20), width (2 standard deviations).
const period = params.period ?? 20;
const width = params.width ?? 2;

// Mean and squared deviations of the last \`period\` closes by Welford's sliding update, recomputed
// from the window once per period (sliding updates drift otherwise).
const window = new Float64Array(period);
let index = 0, count = 0, mean = 0, squares = 0;
let middle = NaN, upper = NaN;

function updateBands(x) {
  const old = window[index];
  window[index] = x;
  index = index + 1 === period ? 0 : index + 1;
  if (count < period) {
    count += 1;
    const delta = x - mean;
    mean += delta / count;
    squares += delta * (x - mean);
  } else {
    const before = mean;
    mean += (x - old) / period;
    squares += (x - old) * (x - mean + old - before);
  }
  if (index === 0) {
    let sum = 0;
    for (const v of window) sum += v;
    mean = sum / period;
    squares = 0;
    for (const v of window) { const d = v - mean; squares += d * d; }
  }
  if (count < period) return;
  middle = mean;
  upper = middle + width * Math.sqrt(Math.max(0, squares / period));
}

function onCandle(candle, ctx) {
  updateBands(candle.close);
  if (Number.isNaN(upper)) return null;
  if (candle.close > upper && ctx.openLots < ctx.maxPositions) {
    return { action: 'buy', reason: 'close above the upper band' };
  }
  if (candle.close < middle && ctx.openLots > 0) return { action: 'exit', reason: 'close below the middle band' };
  return null;
}
`,
  scalper: `// RSI scalper: a short-horizon RSI that buys quick dips and takes small gains; pair it with a tight
// stop loss and take profit. params: rsi_period (7), oversold (25), overbought (60).
${RSI}
${rsiStrategy('scalper RSI', 7, 25, 60)}`,
  dca: `// Dollar-cost averaging: buy one lot every N candles up to max positions; the take profit and stop
// loss close them. params: every_candles (24).
const every = params.every_candles ?? 24;
let seen = 0;

function onCandle(candle, ctx) {
  seen += 1;
  if ((seen - 1) % every !== 0) return null;
  return ctx.openLots < ctx.maxPositions ? { action: 'buy', reason: 'scheduled buy' } : null;
}
`,
  grid: `// Grid: buy a lot each time the price falls one step below the last entry (or the anchor when flat),
// sell a lot one step above the last entry. params: grid_step_percentage (1).
const step = (params.grid_step_percentage ?? 1) / 100;
let anchor = NaN;

function onCandle(candle, ctx) {
  if (Number.isNaN(anchor)) anchor = candle.close;
  const reference = ctx.openLots > 0 ? ctx.lastEntryPrice : anchor;
  if (ctx.openLots > 0 && candle.close >= reference * (1 + step)) {
    anchor = candle.close;
    return { action: 'sell', reason: 'one grid step above the last entry' };
  }
  if (candle.close <= reference * (1 - step) && ctx.openLots < ctx.maxPositions) {
    return { action: 'buy', reason: 'one grid step down' };
  }
  // Flat and the price ran away upwards: the grid follows it.
  if (ctx.openLots === 0 && candle.close >= anchor * (1 + step)) anchor = candle.close;
  return null;
}
`,
} as const;

export type JavaScriptTemplate = keyof typeof JAVASCRIPT_TEMPLATES;
