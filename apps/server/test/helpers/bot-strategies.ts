// User strategies the bot tests and benchmarks run (no imports: benchmarks use them too).

/** Buys when flat, sells when holding: a trade at every candle close, and no warm-up to need. */
export const FLIP_STRATEGY = `function onCandle(candle, ctx) {
  return ctx.openLots > 0 ? { action: 'sell', reason: 'flip' } : { action: 'buy', reason: 'flip' };
}`;
