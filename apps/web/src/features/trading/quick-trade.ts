import {
  getTokenDecimals,
  TRADE_MESSAGES,
  type SpecDecimal,
  type TOrderRequest,
  type TOrderSide,
} from '@solterm/contracts';
import { getBalance, spendShortfall } from './spend-check';
import { formatTokenAmount } from '../../lib/format';

/*
 * The quick trade's pure parts (spec part 1 §4 "Quick trade", §5): the order it sends and the
 * balance notices. The sequence itself lives in use-quick-trade.ts.
 */

/** Balance notices the spec describes but does not word (wording ours). */
export const QUICK_TRADE_NOTICES = {
  /** 'No USDC available to buy SOL with.' */
  noQuoteToBuy: (quote: string, base: string): string => `No ${quote} available to buy ${base} with.`,
  /** Shown 2 s after the no-quote warning. */
  noQuoteTip: (quote: string, base: string): string =>
    `Tip: add ${quote} to this wallet (Fund on test networks), or switch to Sell to trade the ${base} you hold.`,
  /** 'No SOL available to sell.' */
  noBaseToSell: (base: string): string => `No ${base} available to sell.`,
} as const;

/** The outcome of the balance check before an order is built. */
export type BalanceCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly tone: 'warning' | 'error';
      readonly message: string;
      readonly tip?: string;
    };

/**
 * Checks the available balances (POST /trading/suggestion) against the order: buying needs the
 * quote token, selling the base token. Nothing of it: a warning (with a tip for buys); some but
 * not enough: 'Insufficient <token> balance. Required: …, Available: …' by the server's own rule
 * (spend-check.ts). The venue's fee and the network fee are not known yet, so the check is on
 * quantity × price; the server has the last word.
 *
 * @example
 * checkQuickTradeBalances({ side: 'Buy', amount, price, base: 'SOL', quote: 'USDC', balances: { SOL: 1, USDC: 0 } });
 * // { ok: false, tone: 'warning', message: 'No USDC available to buy SOL with.', tip: 'Tip: …' }
 */
export function checkQuickTradeBalances({
  side,
  amount,
  price,
  base,
  quote,
  balances,
}: {
  side: TOrderSide;
  amount: SpecDecimal;
  price: SpecDecimal;
  base: string;
  quote: string;
  balances: Readonly<Record<string, number>>;
}): BalanceCheck {
  const token = side === 'Buy' ? quote : base;
  if (!getBalance(balances, token).gt(0)) {
    return side === 'Buy'
      ? {
          ok: false,
          tone: 'warning',
          message: QUICK_TRADE_NOTICES.noQuoteToBuy(quote, base),
          tip: QUICK_TRADE_NOTICES.noQuoteTip(quote, base),
        }
      : { ok: false, tone: 'warning', message: QUICK_TRADE_NOTICES.noBaseToSell(base) };
  }
  const shortfall = spendShortfall({
    token,
    decimals: getTokenDecimals(token),
    amount: side === 'Buy' ? amount.times(price) : amount,
    balances,
  });
  if (shortfall) {
    return {
      ok: false,
      tone: 'error',
      message: TRADE_MESSAGES.insufficientTokenBalance(
        shortfall.token,
        formatTokenAmount(shortfall.required, shortfall.token),
        formatTokenAmount(shortfall.available, shortfall.token),
      ),
    };
  }
  return { ok: true };
}

/**
 * The quick trade's order: a market order for the selected pair at the price the user saw.
 *
 * @example buildQuickTradeOrder('SOL/USDC', 'Buy', amount, price);
 * // { symbol: 'SOL/USDC', order_type: 'Market', side: 'Buy', quantity: 0.5, price: 150 }
 */
export function buildQuickTradeOrder(
  pairId: string,
  side: TOrderSide,
  amount: SpecDecimal,
  price: SpecDecimal,
): TOrderRequest {
  return { symbol: pairId, order_type: 'Market', side, quantity: amount.toNumber(), price: price.toNumber() };
}
