// Public face of @solterm/engine: the deterministic trading kernel. No I/O, no clock, no randomness.
export * from './money/decimal';
export * from './spot';
export * from './lifecycle';
