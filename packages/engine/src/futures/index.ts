// Perpetual futures: the venue's pure state machine and the arithmetic the web's preview shares.
export * from './perp-math';
export * from './order-book';
export * from './perp-exchange';
export * from './perp-snapshot';
