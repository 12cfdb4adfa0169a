import {
  DEFAULT_SLIPPAGE_BPS,
  formatCalculatorValue,
  getMinimumTradeAmount,
  MARKET_MESSAGES,
  parseTradeNumber,
  SpecDecimal,
  TRADE_MESSAGES,
  VALIDATION_MESSAGES,
  formatMinimumTradeAmount,
  type TOrderRequest,
  type TOrderSide,
  type TOrderType,
} from '@solterm/contracts';
import { fromBaseUnits, limitEscrow, toBaseUnits } from '@solterm/engine';
import { getBalance, spendShortfall } from './spend-check';
import { DEFAULT_TRIGGER_SLIPPAGE_TEXT } from './trigger-order-model';

/*
 * The Place Order form of /trade as pure functions (part 2 §2, §5): the amount typed in base tokens
 * or as a quote total, converted in decimal arithmetic; the spec's validation order; the local
 * balance check; and the order request it sends.
 */

/** The pair the form trades: display text, the API's name for it, and its two tokens. */
export interface SpotPair {
  /** `BONK/SOL`. */
  readonly pair: string;
  /** How the API names the pair (symbols, or the base mint for an unlisted token). */
  readonly pairId: string;
  readonly base: string;
  readonly quote: string;
  /** Decimals of the base token (a quote total converts to whole base units of it). */
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** The base token's mint when known (its safety level gates buys). */
  readonly baseMint?: string | null;
}

/** Whether the amount field holds base tokens or a total in the quote token. */
export type AmountUnit = 'base' | 'quote';

export const PRIORITY_FEE_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type PriorityFeeLevel = (typeof PRIORITY_FEE_LEVELS)[number];

/** Compute-unit price of each priority fee choice, in micro-lamports. */
export const PRIORITY_FEE_MICRO_LAMPORTS: Readonly<Record<PriorityFeeLevel, number>> = {
  none: 0,
  low: 1_000,
  medium: 10_000,
  high: 100_000,
};

/** Slippage choices of a market order, in basis points (the default is the spec's 50). */
export const SLIPPAGE_PRESETS_BPS = [10, DEFAULT_SLIPPAGE_BPS, 100, 300] as const;

/** SOL kept back by the Max button when SOL is the token spent, for network fees (ours). */
export const SOL_FEE_RESERVE = '0.01';

export interface OrderFormValues {
  /** Market, Limit, or a trigger type (take profit, stop loss, trailing stop). */
  readonly orderType: TOrderType;
  readonly side: TOrderSide;
  /** As typed: base tokens, or the quote total when `amountUnit` is 'quote'. */
  readonly amount: string;
  readonly amountUnit: AmountUnit;
  /** Limit orders only, quote per base. */
  readonly limitPrice: string;
  readonly slippageBps: number;
  readonly priorityFee: PriorityFeeLevel;
  /** Take profit and stop loss, quote per base. */
  readonly triggerPrice: string;
  /** Trailing stop, percent. */
  readonly trailPercent: string;
  /** Trigger orders' slippage bound around the trigger, in basis points as typed. */
  readonly maxSlippageBps: string;
}

export const INITIAL_ORDER_FORM_VALUES: OrderFormValues = {
  orderType: 'Market',
  side: 'Buy',
  amount: '',
  amountUnit: 'base',
  limitPrice: '',
  slippageBps: DEFAULT_SLIPPAGE_BPS,
  priorityFee: 'none',
  triggerPrice: '',
  trailPercent: '',
  maxSlippageBps: DEFAULT_TRIGGER_SLIPPAGE_TEXT,
};

/** Balances by token symbol (POST /trading/suggestion `available_balances`). */
export type TokenBalances = Readonly<Record<string, number>>;

/** A typed number as a positive decimal, or null while it is not one. */
export function readPositive(text: string): SpecDecimal | null {
  const parsed = parseTradeNumber(text);
  return parsed.ok ? parsed.value : null;
}

/**
 * The price the order is computed at: the limit price for a limit order, the trigger of a take
 * profit or stop loss, else the market price.
 *
 * @example getOrderPrice({ ...INITIAL_ORDER_FORM_VALUES, orderType: 'Limit', limitPrice: '150' }, null)?.toString(); // '150'
 */
export function getOrderPrice(values: OrderFormValues, marketPrice: SpecDecimal | null): SpecDecimal | null {
  if (values.orderType === 'Limit') return readPositive(values.limitPrice);
  if (values.orderType === 'TakeProfit' || values.orderType === 'StopLoss') {
    return readPositive(values.triggerPrice);
  }
  return marketPrice && marketPrice.gt(0) ? marketPrice : null;
}

/**
 * Base tokens for an amount: as is in base units; a quote total divided by the price and rounded
 * down to the base token's decimals (so the order never spends more than the total typed).
 *
 * @example
 * toBaseQuantity(new SpecDecimal(100), 'quote', new SpecDecimal(3), 6)?.toString(); // '33.333333'
 */
export function toBaseQuantity(
  amount: SpecDecimal,
  unit: AmountUnit,
  price: SpecDecimal | null,
  baseDecimals: number,
): SpecDecimal | null {
  if (unit === 'base') return amount;
  if (!price || price.lte(0)) return null;
  return amount.div(price).toDecimalPlaces(baseDecimals, SpecDecimal.ROUND_DOWN);
}

/** What the form will trade, as far as it can tell yet. */
export interface OrderEstimate {
  readonly price: SpecDecimal | null;
  /** Base tokens. */
  readonly quantity: SpecDecimal | null;
  /** Quote tokens: quantity × price. */
  readonly total: SpecDecimal | null;
}

export function estimateOrder(
  values: OrderFormValues,
  marketPrice: SpecDecimal | null,
  baseDecimals: number,
): OrderEstimate {
  const price = getOrderPrice(values, marketPrice);
  const amount = readPositive(values.amount);
  if (!amount) return { price, quantity: null, total: null };
  const quantity = toBaseQuantity(amount, values.amountUnit, price, baseDecimals);
  const total = quantity && price ? quantity.times(price) : values.amountUnit === 'quote' ? amount : null;
  return { price, quantity, total };
}

/**
 * The amount text re-expressed in the other unit when the user flips the base/total toggle, so
 * the order keeps its size. Empty or unconvertible text is cleared.
 *
 * @example convertAmountText('2', 'base', 'quote', new SpecDecimal(150), 9); // '300'
 */
export function convertAmountText(
  text: string,
  from: AmountUnit,
  to: AmountUnit,
  price: SpecDecimal | null,
  baseDecimals: number,
): string {
  if (from === to) return text;
  const amount = readPositive(text);
  if (!amount || !price) return '';
  if (to === 'quote') return formatCalculatorValue(amount.times(price));
  // Already rounded down to the base decimals: printed in full, never rounded up past the total.
  const quantity = toBaseQuantity(amount, 'quote', price, baseDecimals);
  return quantity && quantity.gt(0) ? quantity.toFixed() : '';
}

/** The token an order spends: the quote for a buy, the base for a sell. */
export function getSpendToken(side: TOrderSide, pair: SpotPair): string {
  return side === 'Buy' ? pair.quote : pair.base;
}

/**
 * The amount text for a share (0–1] of what the wallet can spend on this side, in the form's unit;
 * empty when it cannot be computed (no price for a conversion, nothing to spend). When SOL is
 * spent, {@link SOL_FEE_RESERVE} stays behind for network fees.
 *
 * @example getShareOfBalance(1, 'Sell', 'base', { SOL: 2 }, solUsdc, null); // '1.99'
 */
export function getShareOfBalance(
  share: number,
  side: TOrderSide,
  unit: AmountUnit,
  balances: TokenBalances,
  pair: SpotPair,
  price: SpecDecimal | null,
): string {
  const token = getSpendToken(side, pair);
  let available = getBalance(balances, token);
  if (token.toUpperCase() === 'SOL') available = SpecDecimal.max(available.minus(SOL_FEE_RESERVE), 0);
  const spend = available.times(share);
  if (spend.lte(0)) return '';
  // Buy spends quote, sell spends base; convert when the field holds the other unit.
  const spendUnit: AmountUnit = side === 'Buy' ? 'quote' : 'base';
  // Rounded down to the token's decimals, so a share never asks for more than the wallet holds.
  let amount: SpecDecimal;
  if (unit === spendUnit) amount = spend;
  else if (!price) return '';
  else amount = unit === 'base' ? spend.div(price) : spend.times(price);
  const decimals = unit === 'base' ? pair.baseDecimals : pair.quoteDecimals;
  const rounded = amount.toDecimalPlaces(decimals, SpecDecimal.ROUND_DOWN);
  return rounded.gt(0) ? rounded.toFixed() : '';
}

/** Which part of the form a refusal is about. */
export type OrderCheckField = 'amount' | 'price' | 'wallet' | 'balance';

export type OrderCheck =
  | {
      readonly ok: true;
      readonly order: TOrderRequest;
      readonly quantity: SpecDecimal;
      readonly price: SpecDecimal;
      /** What the order spends, checked against the balance. */
      readonly spend: { readonly token: string; readonly amount: SpecDecimal };
    }
  | {
      readonly ok: false;
      readonly error: string;
      readonly field: OrderCheckField;
      /** 'info' when the form is only waiting (the market price is loading). */
      readonly tone: 'error' | 'info';
    };

export interface OrderCheckInput {
  readonly values: OrderFormValues;
  readonly pair: SpotPair;
  readonly marketPrice: SpecDecimal | null;
  /** Balances read from the chain; null when unknown (the chain then has the last word). */
  readonly balances: TokenBalances | null;
  readonly hasWallet: boolean;
}

function refuse(error: string, field: OrderCheckField, tone: 'error' | 'info' = 'error'): OrderCheck {
  return { ok: false, error, field, tone };
}

/**
 * Checks an order before any transaction is requested (part 2 §5, §4 spot order flow): amount (and
 * price for a limit) present — 'Please enter amount and price' / 'Please enter amount'; positive
 * numbers; at least the minimum trade amount; a wallet ('Wallet not found. Please connect a wallet
 * to trade.'); then the local balance check — a buy needs quote ≥ quantity × price, a sell needs
 * the base quantity ('Insufficient {token} balance. Required: …, Available: …').
 */
export function checkSpotOrder(input: OrderCheckInput): OrderCheck {
  const { values, pair, marketPrice, balances, hasWallet } = input;
  const isLimit = values.orderType === 'Limit';

  if (isLimit && (values.amount.trim() === '' || values.limitPrice.trim() === '')) {
    return refuse(
      VALIDATION_MESSAGES.spotAmountAndPriceRequired,
      values.amount.trim() === '' ? 'amount' : 'price',
    );
  }
  if (!isLimit && values.amount.trim() === '')
    return refuse(VALIDATION_MESSAGES.spotAmountRequired, 'amount');

  const amount = parseTradeNumber(values.amount);
  if (!amount.ok) return refuse(amount.error, 'amount');
  if (isLimit) {
    const limit = parseTradeNumber(values.limitPrice);
    if (!limit.ok) return refuse(limit.error, 'price');
  }

  const price = getOrderPrice(values, marketPrice);
  if (!price) return refuse(MARKET_MESSAGES.loadingCurrentPrice, 'price', 'info');

  const quantity = toBaseQuantity(amount.value, values.amountUnit, price, pair.baseDecimals);
  if (!quantity || quantity.lt(getMinimumTradeAmount(pair.quote))) {
    return refuse(
      VALIDATION_MESSAGES.minimumAmount(formatMinimumTradeAmount(pair.quote), pair.base),
      'amount',
    );
  }

  if (!hasWallet) return refuse(TRADE_MESSAGES.walletNotFoundToTrade, 'wallet');

  const spendToken = getSpendToken(values.side, pair);
  const spendAmount = values.side === 'Buy' ? quantity.times(price) : quantity;
  if (balances) {
    const shortfall = spendShortfall({
      token: spendToken,
      decimals: values.side === 'Buy' ? pair.quoteDecimals : pair.baseDecimals,
      amount: spendAmount,
      balances,
    });
    if (shortfall) {
      return refuse(
        TRADE_MESSAGES.insufficientTokenBalance(
          shortfall.token,
          formatCalculatorValue(shortfall.required),
          formatCalculatorValue(shortfall.available),
        ),
        'balance',
      );
    }
  }

  const order: TOrderRequest = {
    symbol: pair.pairId,
    order_type: isLimit ? 'Limit' : 'Market',
    side: values.side,
    quantity: Number(quantity.toString()),
    // Limit: the limit. Market: the price the user saw (the server measures slippage against it).
    price: Number(price.toString()),
    slippage_bps: values.slippageBps,
    priority_fee_micro_lamports: PRIORITY_FEE_MICRO_LAMPORTS[values.priorityFee],
  };
  return { ok: true, order, quantity, price, spend: { token: spendToken, amount: spendAmount } };
}

/**
 * What placing a limit order escrows on chain, exactly as the server computes it (the engine's
 * `limitEscrow`: a buy escrows the quote total rounded up to whole units, a sell its base amount),
 * or null when the amount is too small to place.
 *
 * @example limitEscrowPreview('Buy', new SpecDecimal('0.5'), new SpecDecimal('150.000001'), solUsdc);
 * // { token: 'USDC', amount: 75.000001 } (75.0000005 rounded up)
 */
export function limitEscrowPreview(
  side: TOrderRequest['side'],
  quantity: SpecDecimal,
  limitPrice: SpecDecimal,
  pair: SpotPair,
): { token: string; amount: SpecDecimal } | null {
  const baseAmount = toBaseUnits(
    quantity.toDecimalPlaces(pair.baseDecimals, SpecDecimal.ROUND_DOWN),
    pair.baseDecimals,
  );
  if (baseAmount <= 0n || !limitPrice.gt(0)) return null;
  const escrow = limitEscrow({
    side,
    baseAmount,
    limitPrice,
    baseDecimals: pair.baseDecimals,
    quoteDecimals: pair.quoteDecimals,
  });
  if (escrow.escrowAmount <= 0n) return null;
  return escrow.escrowLeg === 'base'
    ? { token: pair.base, amount: fromBaseUnits(escrow.escrowAmount, pair.baseDecimals) }
    : { token: pair.quote, amount: fromBaseUnits(escrow.escrowAmount, pair.quoteDecimals) };
}
