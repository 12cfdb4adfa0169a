import {
  FUTURES_INIT_MIN_DEPOSIT_USDC,
  FUTURES_MAKER_FEE_RATE,
  FUTURES_MIN_DEPOSIT_USDC,
  FUTURES_TAKER_FEE_RATE,
  getLeverageRisk,
  LEVERAGE_PRESETS,
  SpecDecimal,
  VALIDATION_MESSAGES,
  type LeverageRisk,
  type TFuturesAccount,
  type TFuturesPair,
  type TFuturesPosition,
} from '@solterm/contracts';
import { crossLiquidationPrice, maintenanceMargin, notionalOf } from '@solterm/engine';

export type FuturesSide = 'Long' | 'Short';
export type FuturesOrderType = 'Market' | 'Limit' | 'StopMarket' | 'TakeProfitMarket';

/** The API's `type` of a trigger order type, or undefined for market and limit orders. */
export function triggerTypeOf(orderType: FuturesOrderType): 'stop_market' | 'take_profit_market' | undefined {
  return orderType === 'StopMarket'
    ? 'stop_market'
    : orderType === 'TakeProfitMarket'
      ? 'take_profit_market'
      : undefined;
}

const USDC_UNITS = new SpecDecimal(1_000_000);

function parsePositive(text: string): SpecDecimal | null {
  const trimmed = text.trim();
  if (!/^\d*\.?\d+$|^\d+\.$/.test(trimmed)) return null;
  const value = new SpecDecimal(trimmed);
  return value.isFinite() && value.gt(0) ? value : null;
}

/** Decimal places of a tick or size string ('0.01' → 2). */
export function decimalsOf(text: string): number {
  const [, fraction = ''] = text.split('.');
  return fraction.length;
}

/**
 * The order form's rule (part 2 §5): amount (and a limit's price, a trigger order's trigger price) required — "Enter amount and
 * price"; both positive numbers — "Amount/Price invalid"; the amount at least the market's minimum.
 * Answers the message to show, or null.
 */
export function validateFuturesOrder(input: {
  amount: string;
  price: string;
  orderType: FuturesOrderType;
  pair: Pick<TFuturesPair, 'min_order_size' | 'base_symbol'>;
}): string | null {
  const needsPrice = input.orderType !== 'Market';
  if (triggerTypeOf(input.orderType) && input.price.trim() === '') return 'Enter a trigger price';
  if (input.amount.trim() === '' || (needsPrice && input.price.trim() === '')) {
    return VALIDATION_MESSAGES.futuresAmountAndPriceRequired;
  }
  const amount = parsePositive(input.amount);
  if (!amount || (needsPrice && !parsePositive(input.price))) {
    return VALIDATION_MESSAGES.futuresAmountOrPriceInvalid;
  }
  if (amount.lt(input.pair.min_order_size)) {
    return `Minimum order size is ${input.pair.min_order_size} ${input.pair.base_symbol}`;
  }
  return null;
}

/** A deposit's rule: positive ("Invalid deposit amount"), at least 1 USDC to initialize, 0.01 after. */
export function validateDeposit(text: string, initializing: boolean): string | null {
  const amount = parsePositive(text);
  if (!amount) return VALIDATION_MESSAGES.invalidDepositAmount;
  if (initializing && amount.lt(FUTURES_INIT_MIN_DEPOSIT_USDC))
    return VALIDATION_MESSAGES.minimumInitialDeposit;
  if (!initializing && amount.lt(FUTURES_MIN_DEPOSIT_USDC))
    return `Minimum deposit amount is ${FUTURES_MIN_DEPOSIT_USDC} USDC`;
  return null;
}

/** Presets a market allows (its max leverage caps the spec's list). */
export function leveragePresets(maxLeverage: number): number[] {
  return LEVERAGE_PRESETS.filter((preset) => preset <= maxLeverage);
}

/** The account's leverage setting for a market (the server's default until the account sets one). */
export function leverageSettingOf(
  account: TFuturesAccount | undefined,
  pair: Pick<TFuturesPair, 'symbol' | 'max_leverage'>,
): { leverage: number; inUse: boolean } {
  const setting = account?.leverage_settings?.find((entry) => entry.symbol === pair.symbol);
  return {
    leverage: setting?.leverage ?? Math.min(FUTURES_DEFAULT_LEVERAGE, pair.max_leverage),
    inUse: setting?.in_use ?? false,
  };
}

/** The server's leverage for a market the account has not set (the engine's PERP_DEFAULT_LEVERAGE). */
export const FUTURES_DEFAULT_LEVERAGE = 10;

export interface FuturesPreview {
  notional: SpecDecimal;
  /**
   * Initial margin the order adds at the account's leverage: the part that opens or adds exposure
   * (what reduces the position held adds none), divided by the leverage.
   */
  margin: SpecDecimal;
  /** Taker fee for a market order, maker fee for a resting limit. */
  fee: SpecDecimal;
  /** Where the account would be liquidated after this order fills (cross margin), or null. */
  liquidationPrice: SpecDecimal | null;
  risk: LeverageRisk;
}

const units = (value: SpecDecimal) =>
  BigInt(value.times(USDC_UNITS).toDecimalPlaces(0, SpecDecimal.ROUND_DOWN).toFixed());

/**
 * The order's preview: notional, margin, fee, risk label and the liquidation price after it fills
 * — computed with the engine's own `crossLiquidationPrice`, the function the venue liquidates by,
 * from the account as the server reports it (equity and maintenance margin) and the position this
 * order changes. Null when the inputs do not make an order.
 */
export function previewFuturesOrder(input: {
  side: FuturesSide;
  orderType: FuturesOrderType;
  amount: string;
  price: string;
  /** The account's leverage setting for the market (an order never changes it). */
  leverage: number;
  pair: TFuturesPair;
  account: TFuturesAccount | undefined;
  position: TFuturesPosition | undefined;
}): FuturesPreview | null {
  const amount = parsePositive(input.amount);
  const oracle = input.pair.oracle_price ? new SpecDecimal(input.pair.oracle_price) : null;
  // A trigger order is previewed at its trigger price, where it becomes a market order.
  const price = input.orderType === 'Market' ? oracle : parsePositive(input.price);
  if (!amount || !price || !oracle) return null;
  const sizeDecimals = decimalsOf(input.pair.min_order_size);
  const notional = amount.times(price);
  const crosses = input.orderType !== 'Limit';
  const fee = notional.times(crosses ? FUTURES_TAKER_FEE_RATE : FUTURES_MAKER_FEE_RATE);
  const held =
    input.position && input.position.side !== input.side ? new SpecDecimal(input.position.size) : null;
  const added = held ? SpecDecimal.max(amount.minus(held), 0) : amount;
  const margin = added.times(price).div(input.leverage);
  let liquidationPrice: SpecDecimal | null = null;
  if (input.account?.initialized) {
    const lots = (value: SpecDecimal) =>
      BigInt(
        value
          .times(new SpecDecimal(10).pow(sizeDecimals))
          .toDecimalPlaces(0, SpecDecimal.ROUND_DOWN)
          .toFixed(),
      );
    const existing = input.position
      ? lots(new SpecDecimal(input.position.size)) * BigInt(input.position.direction)
      : 0n;
    const delta = lots(amount) * (input.side === 'Long' ? 1n : -1n);
    const after = existing + delta;
    const oracleUnits = units(oracle);
    const markValue = (existing * oracleUnits) / 10n ** BigInt(sizeDecimals);
    const equityExcludingMark =
      units(new SpecDecimal(input.account.equity)) -
      markValue -
      (delta * units(price)) / 10n ** BigInt(sizeDecimals) -
      units(fee);
    const otherMaintenance =
      units(new SpecDecimal(input.account.maintenance_margin)) -
      maintenanceMargin(notionalOf(existing, oracleUnits, sizeDecimals), input.pair.max_leverage);
    const price_ = crossLiquidationPrice({
      size: after,
      sizeDecimals,
      maxLeverage: input.pair.max_leverage,
      equityExcludingMark,
      otherMaintenance: otherMaintenance > 0n ? otherMaintenance : 0n,
    });
    liquidationPrice = price_ ? new SpecDecimal(price_.toString()).div(USDC_UNITS) : null;
  }
  return { notional, margin, fee, liquidationPrice, risk: getLeverageRisk(input.leverage) };
}

/** What the submit button does for this side given the position held: open, add to or reduce it. */
export function orderAction(side: FuturesSide, position: TFuturesPosition | undefined): string {
  if (!position) return side === 'Long' ? 'Open Long' : 'Open Short';
  if (position.side === side) return side === 'Long' ? 'Add to Long' : 'Add to Short';
  return side === 'Long' ? 'Close / Reduce Short' : 'Close / Reduce Long';
}
