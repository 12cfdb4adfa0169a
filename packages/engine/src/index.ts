// Public face of @solterm/engine: the deterministic trading kernel. No I/O, no clock, no randomness.
export * from './money/decimal';
// Exact bigint decimal arithmetic (value conservation): `exact.add(a, b)`, `exact.floor(x)`…
export * as exact from './money/exact';
export type { Exact } from './money/exact';
export * from './spot';
export * from './lifecycle';
export * from './market/candle';
// Interfaces reserved for the strategies, backtests and futures issues (no implementation yet).
export type * from './strategy/strategy';
export type * from './backtest/backtest';
export type * from './futures/futures';
