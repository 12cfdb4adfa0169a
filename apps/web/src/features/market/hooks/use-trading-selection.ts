import { createContext, useCallback, useContext, useEffect, useSyncExternalStore } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { getTradingContext, SEARCH_MESSAGES, type TradingContext } from '@solterm/contracts';
import { notify } from '../../../lib/toast';
import { marketKeys } from '../api/market-api';
import {
  getPairId,
  selectionFromPair,
  tradingStore,
  type PairSelection,
  type TradingStore,
} from '../trading-state';

/** The store hooks use: the app's, or a test's own. */
export const TradingStoreContext = createContext<TradingStore>(tradingStore);

export function useTradingStore(): TradingStore {
  return useContext(TradingStoreContext);
}

/** The trading context of the current page (trade, dashboard or futures, by path). */
export function useTradingContext(): TradingContext {
  return getTradingContext(useLocation().pathname);
}

/**
 * The selected pair of the current page's context. A `pair` query parameter (`?pair=BONK/SOL`)
 * sets it (spec part 1 §2).
 */
export function useTradingSelection(): PairSelection {
  const store = useTradingStore();
  const context = useTradingContext();
  const [searchParams] = useSearchParams();
  const pairParam = searchParams.get('pair');

  useEffect(() => {
    if (!pairParam) return;
    const selection = selectionFromPair(pairParam);
    if (selection && store.getSelection(context).pair !== selection.pair) {
      store.setSelection(context, selection);
    }
  }, [store, context, pairParam]);

  const getSnapshot = useCallback(() => store.getSelection(context), [store, context]);
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}

/** Increments each time a pair switch is accepted (anywhere). */
export function usePairSwitchCount(): number {
  const store = useTradingStore();
  return useSyncExternalStore(store.subscribe, store.getSwitchCount, store.getSwitchCount);
}

/**
 * Switches the current page's pair (spec part 1 §4): sets pair, token address and names, refetches
 * the price, toasts 'Switched to <name>'. Calls within 100 ms of the last switch are ignored and
 * return false; a switch toast within 100 ms of the last is suppressed. A `pair` query parameter in
 * the address bar follows the switch, so a reload keeps the new pair.
 */
export function useSwitchPair(contextOverride?: TradingContext): (selection: PairSelection) => boolean {
  const store = useTradingStore();
  const pageContext = useTradingContext();
  const context = contextOverride ?? pageContext;
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const hasPairParam = searchParams.has('pair');

  return useCallback(
    (selection: PairSelection) => {
      if (!store.switchPair(context, selection)) return false;
      void queryClient.invalidateQueries({ queryKey: marketKeys.pairPrice(getPairId(selection)) });
      if (store.claimToast()) notify.success(SEARCH_MESSAGES.switchedTo(selection.baseName));
      if (hasPairParam) {
        setSearchParams(
          (params) => {
            params.set('pair', selection.pair);
            return params;
          },
          { replace: true },
        );
      }
      return true;
    },
    [store, context, queryClient, hasPairParam, setSearchParams],
  );
}
