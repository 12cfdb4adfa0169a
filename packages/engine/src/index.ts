// Public face of @solterm/engine: the deterministic trading kernel. No I/O, no clock, no randomness.
export * from './money/decimal';
// Exact bigint decimal arithmetic (value conservation): `exact.add(a, b)`, `exact.floor(x)`…
export * as exact from './money/exact';
export type { Exact } from './money/exact';
export * from './spot';
export * from './lifecycle';
export * from './market/candle';
export * from './market/candle-series';
// Strategies and backtests: one runtime for both (strategy/runtime.ts).
export * from './strategy/strategy';
export * from './strategy/indicators/indicators';
export * from './strategy/built-ins';
export * from './strategy/runtime';
export * from './strategy/random';
export * from './strategy/templates/javascript';
export * from './strategy/templates/python';
export * from './backtest/backtest';
export * from './backtest/metrics';
// Perpetual futures: order book, cross margin, funding, liquidation.
export * from './futures';
