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
  type TriggerKind,
  type TriggerOrder,
} from './perp-state';
export {
  firesAbove,
  isTriggered,
  PERP_MAX_TRIGGERS_PER_MARKET,
  type FiredTrigger,
  type PlaceTriggerInput,
  type TpslInput,
  type TpslResult,
  type TriggerResult,
} from './perp-triggers';
export type { PlaceOrderInput, PlaceOrderResult } from './perp-order-entry';
export type { LiquidationResult } from './perp-liquidation';
export type { FundingResult } from './perp-funding';
export * from './perp-snapshot';
