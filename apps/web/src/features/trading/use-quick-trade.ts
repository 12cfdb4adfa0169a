import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  NO_USDC_TIP_DELAY_MS,
  TRADE_MESSAGES,
  validateQuickTrade,
  type TOrderSide,
  type TSpotOrder,
  type TTradeQuote,
} from '@solterm/contracts';
import { notify } from '../../lib/toast';
import { useWallet } from '../wallet';
import { buildQuickTradeOrder, checkQuickTradeBalances } from './quick-trade';
import { submitOrderWithExpiryRetries, toTradeError, type OrderStage } from './submit-order';
import { tradingApi } from './trading-api';
import type { TradingFormState } from './trading-form';
import { queryKeys } from '../../lib/query-keys';
import { useRefreshAfterTrade } from './trading-queries';
import { formatTokenAmount } from '../../lib/format';
import { notifyOrderExecuted } from './trade-toasts';

/** Where the quick trade is: idle, checking balances, or a stage of the order. */
export type QuickTradePhase = 'idle' | 'checking' | OrderStage;

/** The last order this panel executed, for its receipt line. */
export interface QuickTradeFill {
  readonly side: TOrderSide;
  readonly base: string;
  readonly quote: string;
  readonly quantity: number;
  readonly transactionHash: string;
  readonly order: TSpotOrder | null;
  readonly quoteDetails: TTradeQuote | null;
}

export interface QuickTradeInput {
  /** The API's pair id (`SOL/USDC`, or `<mint>/SOL`). */
  readonly pairId: string;
  readonly base: string;
  readonly quote: string;
  readonly side: TOrderSide;
  readonly form: TradingFormState;
  /** Clears amount and total after a successful order. */
  readonly clearForm: () => void;
}

/**
 * The dashboard quick trade (spec part 1 §4): validate → wallet connected → fresh balances from
 * POST /trading/suggestion (warnings when there is nothing to pay with) → build, sign, execute and
 * record with the 2 expiry retries → success toast with the hash → clear the form → refresh
 * portfolio, recent trades and balances after 1 s.
 */
export function useQuickTrade({ pairId, base, quote, side, form, clearForm }: QuickTradeInput) {
  const wallet = useWallet();
  const queryClient = useQueryClient();
  const refreshSoon = useRefreshAfterTrade();
  const [phase, setPhase] = useState<QuickTradePhase>('idle');
  // The error belongs to the inputs it was about; a new edit, side or pair hides it. A price that
  // follows the market moves on its own, so it does not count as an edit.
  const inputsKey = [form.amount, form.isPriceFromMarket ? 'market' : form.price, side, pairId].join('|');
  const [errorState, setErrorState] = useState<{ message: string; inputsKey: string } | null>(null);
  const error = errorState?.inputsKey === inputsKey ? errorState.message : null;
  const setError = useCallback(
    (message: string | null) => setErrorState(message === null ? null : { message, inputsKey }),
    [inputsKey],
  );
  const [lastFill, setLastFill] = useState<QuickTradeFill | null>(null);
  const isBusy = useRef(false);
  const tipTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (tipTimer.current) clearTimeout(tipTimer.current);
    },
    [],
  );

  const submit = useCallback(async () => {
    if (isBusy.current) return;
    const validation = validateQuickTrade({
      amount: form.amount,
      price: form.price,
      baseSymbol: base,
      quoteSymbol: quote,
    });
    if (!validation.ok) {
      setError(validation.error);
      return;
    }
    // No point reading balances or building a transaction for a wallet that cannot sign it.
    if (!wallet.connected) {
      setError(TRADE_MESSAGES.noWalletConnected);
      notify.error(TRADE_MESSAGES.noWalletConnected);
      return;
    }

    isBusy.current = true;
    setError(null);
    setPhase('checking');
    try {
      const { amount, price } = validation.value;
      const suggestion = await queryClient
        .fetchQuery({
          queryKey: queryKeys.trading.suggestion(pairId),
          queryFn: () => tradingApi.suggestion(pairId),
          staleTime: 0,
        })
        .catch((caught: unknown) => {
          // The balances are advice; the server still refuses an order it cannot fill.
          console.warn('Could not read balances before the quick trade', caught);
          return null;
        });
      if (suggestion) {
        const check = checkQuickTradeBalances({
          side,
          amount,
          price,
          base,
          quote,
          balances: suggestion.available_balances,
        });
        if (!check.ok) {
          setError(check.message);
          if (check.tone === 'warning') notify.warning(check.message);
          else notify.error(check.message);
          if (check.tip) {
            const tip = check.tip;
            if (tipTimer.current) clearTimeout(tipTimer.current);
            tipTimer.current = setTimeout(() => notify.info(tip), NO_USDC_TIP_DELAY_MS);
          }
          return;
        }
      }

      const order = buildQuickTradeOrder(pairId, side, amount, price);
      const result = await submitOrderWithExpiryRetries(order, {
        signTransaction: wallet.signTransaction,
        onStage: setPhase,
      });
      const verb = side === 'Buy' ? 'Bought' : 'Sold';
      // A pending one is announced (and followed) by its signature already.
      if (!result.pending)
        notifyOrderExecuted(
          `${verb} ${formatTokenAmount(order.quantity, base)} ${base}`,
          result.transactionHash,
        );
      setLastFill({
        side,
        base,
        quote,
        quantity: order.quantity,
        transactionHash: result.transactionHash,
        order: result.order,
        quoteDetails: result.unsigned.quote,
      });
      clearForm();
      refreshSoon();
    } catch (caught) {
      const tradeError = toTradeError(caught, TRADE_MESSAGES.placeOrderFailed);
      setError(tradeError.message);
      notify.error(tradeError.message);
    } finally {
      isBusy.current = false;
      setPhase('idle');
    }
  }, [form, base, quote, side, pairId, wallet, queryClient, clearForm, refreshSoon, setError]);

  return { submit, phase, error, lastFill, isConnected: wallet.connected !== null };
}
