import {
  DEFAULT_TRIGGER_SLIPPAGE_BPS,
  formatCalculatorValue,
  formatMinimumTradeAmount,
  getMinimumTradeAmount,
  MARKET_MESSAGES,
  MAX_SLIPPAGE_BPS,
  MAX_TRAIL_PERCENT,
  MIN_TRAIL_PERCENT,
  parseTradeNumber,
  SpecDecimal,
  TRADE_MESSAGES,
  VALIDATION_MESSAGES,
  type TOrderSide,
  type TOrderType,
  type TTriggerOrderRequest,
  type TTriggerOrderTypeParam,
} from '@solterm/contracts';
import {
  fromBaseUnits,
  toBaseUnits,
  trailingTrigger,
  triggerDirection,
  triggerEscrow,
} from '@solterm/engine';
import { spendShortfall } from './spend-check';
import type { SpotPair, TokenBalances } from './order-form-model';

/*
 * Take-profit, stop-loss and trailing-stop orders as the Place Order form and a position's TP / SL
 * shortcut build them: the checks the server makes (trigger on the right side of the market, trail
 * 0.1–50 %, slippage bound), made before the wallet is asked, and the escrow the order locks.
 */

export type TriggerOrderType = 'TakeProfit' | 'StopLoss' | 'TrailingStop';

/** The API's name of each trigger type. */
export const TRIGGER_TYPE_PARAMS: Readonly<Record<TriggerOrderType, TTriggerOrderTypeParam>> = {
  TakeProfit: 'take_profit',
  StopLoss: 'stop_loss',
  TrailingStop: 'trailing_stop',
};

export const DEFAULT_TRIGGER_SLIPPAGE_TEXT = String(DEFAULT_TRIGGER_SLIPPAGE_BPS);

export function isTriggerType(type: TOrderType): type is TriggerOrderType {
  return type === 'TakeProfit' || type === 'StopLoss' || type === 'TrailingStop';
}

const KIND_WORDS: Readonly<Record<TriggerOrderType, string>> = {
  TakeProfit: 'take-profit',
  StopLoss: 'stop-loss',
  TrailingStop: 'trailing stop',
};

/** What a trigger order is, as typed. */
export interface TriggerOrderInput {
  readonly type: TriggerOrderType;
  readonly side: TOrderSide;
  /** Base tokens, as typed. */
  readonly amount: string;
  /** Take profit and stop loss, quote per base. */
  readonly triggerPrice: string;
  /** Trailing stop, percent. */
  readonly trailPercent: string;
  /** Basis points, as typed. */
  readonly maxSlippageBps: string;
  readonly priorityFeeMicroLamports: number;
  /** Another open order of the user on the pair (one cancels the other). */
  readonly ocoWith?: string;
}

export type TriggerCheckField = 'amount' | 'trigger' | 'slippage' | 'wallet' | 'balance';

export type TriggerCheck =
  | {
      readonly ok: true;
      readonly order: TTriggerOrderRequest;
      readonly quantity: SpecDecimal;
      /** What the order escrows on chain until it fills or is cancelled. */
      readonly escrow: { readonly token: string; readonly amount: SpecDecimal };
    }
  | {
      readonly ok: false;
      readonly error: string;
      readonly field: TriggerCheckField;
      readonly tone: 'error' | 'info';
    };

function refuse(error: string, field: TriggerCheckField, tone: 'error' | 'info' = 'error'): TriggerCheck {
  return { ok: false, error, field, tone };
}

/** The message for a trigger that would fire at once, or null when it is ahead of the market. */
export function wrongSideMessage(
  type: 'TakeProfit' | 'StopLoss',
  side: TOrderSide,
  trigger: SpecDecimal,
  marketPrice: SpecDecimal,
  pairText: string,
): string | null {
  const direction = triggerDirection(type, side);
  const isAhead = direction === 'above' ? trigger.gt(marketPrice) : trigger.lt(marketPrice);
  if (isAhead) return null;
  const where = direction === 'above' ? 'above' : 'below';
  return (
    `A ${KIND_WORDS[type]} ${side.toLowerCase()} triggers when the price goes ${where} its trigger: ` +
    `${pairText} is at ${formatCalculatorValue(marketPrice)}, so the trigger must be ${where} it`
  );
}

function readSlippage(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const bps = Number(trimmed);
  return bps <= MAX_SLIPPAGE_BPS ? bps : null;
}

/** The trigger the order has at placement: the typed one, or the trailing one off the market. */
function readTrigger(
  input: TriggerOrderInput,
  marketPrice: SpecDecimal,
  pairText: string,
): { trigger: SpecDecimal; trail?: SpecDecimal } | { error: string } {
  if (input.type === 'TrailingStop') {
    const trail = parseTradeNumber(input.trailPercent);
    if (!trail.ok || trail.value.lt(MIN_TRAIL_PERCENT) || trail.value.gt(MAX_TRAIL_PERCENT)) {
      return { error: `Trail must be between ${MIN_TRAIL_PERCENT} % and ${MAX_TRAIL_PERCENT} %` };
    }
    const trigger = new SpecDecimal(trailingTrigger(input.side, marketPrice, trail.value).toString());
    return { trigger, trail: trail.value };
  }
  const trigger = parseTradeNumber(input.triggerPrice);
  if (!trigger.ok) return { error: trigger.error };
  const wrongSide = wrongSideMessage(input.type, input.side, trigger.value, marketPrice, pairText);
  return wrongSide ? { error: wrongSide } : { trigger: trigger.value };
}

/** What a trigger order locks, as the server computes it (a buy: the quote its bound can cost). */
export function triggerEscrowPreview(
  side: TOrderSide,
  quantity: SpecDecimal,
  trigger: SpecDecimal,
  maxSlippageBps: number,
  pair: SpotPair,
): { token: string; amount: SpecDecimal } | null {
  const baseAmount = toBaseUnits(
    quantity.toDecimalPlaces(pair.baseDecimals, SpecDecimal.ROUND_DOWN),
    pair.baseDecimals,
  );
  if (baseAmount <= 0n || !trigger.gt(0)) return null;
  const escrow = triggerEscrow({
    side,
    baseAmount,
    trigger,
    maxSlippageBps,
    baseDecimals: pair.baseDecimals,
    quoteDecimals: pair.quoteDecimals,
  });
  if (escrow.escrowAmount <= 0n) return null;
  return escrow.escrowLeg === 'base'
    ? { token: pair.base, amount: new SpecDecimal(fromBaseUnits(escrow.escrowAmount, pair.baseDecimals)) }
    : { token: pair.quote, amount: new SpecDecimal(fromBaseUnits(escrow.escrowAmount, pair.quoteDecimals)) };
}

/**
 * Checks a trigger order before any transaction is requested: amount, trigger price (on the side of
 * the market where it has not fired yet) or trail (0.1–50 %), slippage bound (0–5000 bps), the
 * minimum trade amount, a wallet, then the balance its escrow needs. Answers the request body.
 */
export function checkTriggerOrder(input: {
  readonly order: TriggerOrderInput;
  readonly pair: SpotPair;
  readonly marketPrice: SpecDecimal | null;
  readonly balances: TokenBalances | null;
  readonly hasWallet: boolean;
}): TriggerCheck {
  const { order, pair, marketPrice, balances } = input;
  const isTrailing = order.type === 'TrailingStop';
  if (order.amount.trim() === '') return refuse(VALIDATION_MESSAGES.spotAmountRequired, 'amount');
  if (!isTrailing && order.triggerPrice.trim() === '')
    return refuse('Please enter a trigger price', 'trigger');
  if (isTrailing && order.trailPercent.trim() === '') return refuse('Please enter the trail in %', 'trigger');
  const amount = parseTradeNumber(order.amount);
  if (!amount.ok) return refuse(amount.error, 'amount');
  if (!marketPrice || !marketPrice.gt(0))
    return refuse(MARKET_MESSAGES.loadingCurrentPrice, 'trigger', 'info');
  const read = readTrigger(order, marketPrice, pair.pair);
  if ('error' in read) return refuse(read.error, 'trigger');
  const slippage = readSlippage(order.maxSlippageBps);
  if (slippage === null) return refuse(`Max slippage must be 0–${MAX_SLIPPAGE_BPS} bps`, 'slippage');
  const quantity = amount.value;
  if (quantity.lt(getMinimumTradeAmount(pair.quote))) {
    return refuse(
      VALIDATION_MESSAGES.minimumAmount(formatMinimumTradeAmount(pair.quote), pair.base),
      'amount',
    );
  }
  if (!input.hasWallet) return refuse(TRADE_MESSAGES.walletNotFoundToTrade, 'wallet');
  const escrow = triggerEscrowPreview(order.side, quantity, read.trigger, slippage, pair);
  if (!escrow)
    return refuse(
      VALIDATION_MESSAGES.minimumAmount(formatMinimumTradeAmount(pair.quote), pair.base),
      'amount',
    );
  if (balances) {
    const shortfall = spendShortfall({
      token: escrow.token,
      decimals: escrow.token === pair.base ? pair.baseDecimals : pair.quoteDecimals,
      amount: escrow.amount,
      balances,
    });
    if (shortfall) {
      const { required, available } = shortfall;
      return refuse(
        TRADE_MESSAGES.insufficientTokenBalance(
          shortfall.token,
          formatCalculatorValue(required),
          formatCalculatorValue(available),
        ),
        'balance',
      );
    }
  }
  const request: TTriggerOrderRequest = {
    symbol: pair.pairId,
    order_type: TRIGGER_TYPE_PARAMS[order.type],
    side: order.side,
    amount: Number(quantity.toString()),
    ...(read.trail
      ? { trail_percent: Number(read.trail.toString()) }
      : { trigger_price: Number(read.trigger.toString()) }),
    max_slippage_bps: slippage,
    priority_fee_micro_lamports: order.priorityFeeMicroLamports,
    ...(order.ocoWith ? { oco_with: order.ocoWith } : {}),
  };
  return { ok: true, order: request, quantity, escrow };
}
