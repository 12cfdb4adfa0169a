// Perpetual futures: the venue's pure state machine and the arithmetic the web's preview shares.
export * from './perp-math';
export * from './order-book';
export * from './perp-exchange';
export {
  PERP_DEFAULT_LEVERAGE,
  PerpError,
  type PerpAccount,
  type PerpErrorCode,
  type PerpFill,
  type PerpMarketSpec,
  type PerpPosition,
} from './perp-state';
export type { PlaceOrderInput, PlaceOrderResult } from './perp-order-entry';
export type { LiquidationResult } from './perp-liquidation';
export type { FundingResult } from './perp-funding';
export * from './perp-snapshot';
