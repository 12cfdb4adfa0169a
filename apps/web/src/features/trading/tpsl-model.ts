import {
  formatCalculatorValue,
  getTokenDecimals,
  parseSpecDecimal,
  SpecDecimal,
  TRADE_MESSAGES,
  type TPosition,
  type TTriggerOrderRequest,
} from '@solterm/contracts';
import type { SpotPair, TokenBalances } from './order-form-model';
import { spendShortfall } from './spend-check';
import { checkTriggerOrder, DEFAULT_TRIGGER_SLIPPAGE_TEXT } from './trigger-order-model';

/*
 * A position's "TP / SL" shortcut: a take-profit and a stop-loss sell of the position, either or
 * both; with both, the stop loss names the take profit in `oco_with` so one cancels the other.
 */

export interface TpSlValues {
  /** Base tokens to sell, as typed. */
  readonly size: string;
  readonly takeProfit: string;
  readonly stopLoss: string;
  readonly maxSlippageBps: string;
}

export type TpSlField = 'size' | 'takeProfit' | 'stopLoss' | 'slippage' | 'wallet' | 'balance';

export type TpSlCheck =
  | { readonly ok: true; readonly orders: readonly TpSlOrder[] }
  | {
      readonly ok: false;
      readonly error: string;
      readonly field: TpSlField;
      readonly tone: 'error' | 'info';
    };

export interface TpSlOrder {
  readonly kind: 'takeProfit' | 'stopLoss';
  readonly request: TTriggerOrderRequest;
}

/** Default suggestions around the mark: take profit 10 % above, stop loss 5 % below. */
const TAKE_PROFIT_FACTOR = '1.1';
const STOP_LOSS_FACTOR = '0.95';

/** The pair a position trades, as the order models need it. */
export function positionPair(position: TPosition): SpotPair {
  return {
    pair: position.symbol,
    pairId: position.symbol,
    base: position.base_symbol,
    quote: position.quote_symbol,
    baseDecimals: getTokenDecimals(position.base_symbol),
    quoteDecimals: getTokenDecimals(position.quote_symbol),
  };
}

function suggestPrice(mark: SpecDecimal | null, factor: string): string {
  return mark ? formatCalculatorValue(mark.times(factor).toSignificantDigits(6)) : '';
}

/** What the dialog opens with: the whole position, a take profit 10 % up and a stop loss 5 % down. */
export function initialTpSlValues(position: TPosition): TpSlValues {
  const mark = parseSpecDecimal(position.mark_price);
  const size = parseSpecDecimal(position.size);
  return {
    size: size && size.gt(0) ? formatCalculatorValue(size) : '',
    takeProfit: suggestPrice(mark, TAKE_PROFIT_FACTOR),
    stopLoss: suggestPrice(mark, STOP_LOSS_FACTOR),
    maxSlippageBps: DEFAULT_TRIGGER_SLIPPAGE_TEXT,
  };
}

/**
 * Checks the pair of orders before the wallet is asked: at least one price, each order as the
 * order form checks it (take profit above the market, stop loss below), then the balance both
 * escrows need together (each order of an OCO pair locks its own tokens).
 */
export function checkTpSl(input: {
  readonly values: TpSlValues;
  readonly pair: SpotPair;
  readonly marketPrice: SpecDecimal | null;
  readonly balances: TokenBalances | null;
  readonly hasWallet: boolean;
}): TpSlCheck {
  const { values, pair } = input;
  const legs = (
    [
      { kind: 'takeProfit', type: 'TakeProfit', price: values.takeProfit },
      { kind: 'stopLoss', type: 'StopLoss', price: values.stopLoss },
    ] as const
  ).filter((leg) => leg.price.trim() !== '');
  if (legs.length === 0) {
    return {
      ok: false,
      error: 'Enter a take-profit price, a stop-loss price, or both',
      field: 'takeProfit',
      tone: 'error',
    };
  }
  const orders: TpSlOrder[] = [];
  let escrowed = new SpecDecimal(0);
  for (const leg of legs) {
    const check = checkTriggerOrder({
      order: {
        type: leg.type,
        side: 'Sell',
        amount: values.size,
        triggerPrice: leg.price,
        trailPercent: '',
        maxSlippageBps: values.maxSlippageBps,
        priorityFeeMicroLamports: 0,
      },
      pair,
      marketPrice: input.marketPrice,
      balances: null,
      hasWallet: input.hasWallet,
    });
    if (!check.ok) {
      const field = check.field === 'trigger' ? leg.kind : check.field === 'amount' ? 'size' : check.field;
      return { ok: false, error: check.error, field, tone: check.tone };
    }
    orders.push({ kind: leg.kind, request: check.order });
    escrowed = escrowed.plus(check.escrow.amount);
  }
  const shortfall = input.balances
    ? spendShortfall({
        token: pair.base,
        decimals: pair.baseDecimals,
        amount: escrowed,
        balances: input.balances,
      })
    : null;
  if (shortfall) {
    const required = formatCalculatorValue(shortfall.required);
    const available = formatCalculatorValue(shortfall.available);
    const error =
      orders.length === 2
        ? `Each order escrows its own ${shortfall.token}: both together need ${required}, available ${available}. Lower the size or set one price only.`
        : TRADE_MESSAGES.insufficientTokenBalance(shortfall.token, required, available);
    return { ok: false, error, field: 'balance', tone: 'error' };
  }
  return { ok: true, orders };
}
