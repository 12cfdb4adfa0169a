// The built-in strategies as readable JavaScript: the editor offers them as templates, and the parity
// tests run them in the sandbox against the engine's own (same arithmetic, so the same trades).
// A strategy defines onCandle(candle, ctx) and returns null or { action: 'buy' | 'sell' | 'exit', reason }.
// ctx: { openLots, maxPositions, lastEntryPrice, params }. State lives in top-level variables.

const SMA = `// Simple moving average over the last \`period\` closes (a ring buffer and a running sum,
// re-summed once per window so rounding never drifts).
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

export const JAVASCRIPT_TEMPLATES = {
  sma_crossover: `// SMA crossover: buy when the short average crosses above the long one, exit when it crosses below.
// params: short_window (5), long_window (20).
${SMA}

const short = sma(params.short_window ?? 5);
const long = sma(params.long_window ?? 20);
let previousDiff = NaN;

function onCandle(candle, ctx) {
  const diff = short(candle.close) - long(candle.close);
  const before = previousDiff;
  previousDiff = diff;
  if (Number.isNaN(diff) || Number.isNaN(before)) return null;
  if (before <= 0 && diff > 0 && ctx.openLots < ctx.maxPositions) {
    return { action: 'buy', reason: 'SMA short crossed above long' };
  }
  if (before >= 0 && diff < 0 && ctx.openLots > 0) {
    return { action: 'exit', reason: 'SMA short crossed below long' };
  }
  return null;
}
`,
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
} as const;

export type JavaScriptTemplate = keyof typeof JAVASCRIPT_TEMPLATES;
