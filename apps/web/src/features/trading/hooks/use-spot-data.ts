import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SPOT_ORDER_REFRESH_DELAY_MS,
  spotBookChannel,
  spotPositionsChannel,
  TRADES_FEED_LIMIT,
  TRADES_FEED_POLL_MS,
  type TSpotOrder,
} from '@solterm/contracts';
import { invalidateAfterTrade, queryKeys } from '../../../lib/query-keys';
import { notify } from '../../../lib/toast';
import { useChannel, useIsRealtimeLive, useRealtimeEvent, useRealtimeUserId } from '../../../lib/ws-client';
import { tradingApi } from '../trading-api';
import { mergeOrder, useRefreshAfterTrade } from '../trading-queries';
import { usePairTradability } from '../use-tradability';

/*
 * The trade page's reads, pushed over /ws and polled only while the socket is down (the cadences
 * below are the fallback's). The order book comes on `spot-book:<PAIR>` and positions, marked to
 * the market, on the user's `spot-positions:<userId>` every market tick; orders come as
 * `order_update` pushes, and each one reads fills, positions and balances again. The spec's All
 * Trades cadence (100 fills every 5 s) and its 2 s refresh after an order are kept for the fallback.
 */

/** Order book refresh while the socket is down. */
export const ORDER_BOOK_POLL_MS = 2_000;
/** Positions refresh while no authenticated socket is open (their mark price moves with the market). */
export const POSITIONS_POLL_MS = 10_000;
/** Orders refresh while at least one is Pending and the socket is down. */
export const PENDING_ORDERS_POLL_MS = 5_000;
/** Balances refresh while the socket is down (otherwise read again after every order_update). */
export const BALANCES_POLL_MS = 30_000;

/**
 * Your Spot Orders (GET /trading/orders), newest first. The server pushes every change
 * (`order_update`, see useOrderUpdates): polling for a Pending order's fill is only the fallback while
 * the socket is down.
 */
export function useSpotOrders() {
  const isLive = useIsRealtimeLive();
  return useQuery({
    queryKey: queryKeys.trading.orders,
    queryFn: ({ signal }) => tradingApi.getOrders(signal),
    refetchInterval: (query) =>
      !isLive && query.state.data?.some((order) => order.status === 'Pending')
        ? PENDING_ORDERS_POLL_MS
        : false,
  });
}

/**
 * Applies the server's `order_update` pushes (an order landed, filled by the keeper, cancelled) to
 * Your Orders at once, and reads again what the change moved (fills, positions, balances). Mounted
 * once in the signed-in shell, so every page's views stay current.
 */
export function useOrderUpdates(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent('order_update', ({ data: order }) => {
    queryClient.setQueryData<TSpotOrder[]>(queryKeys.trading.orders, (orders) =>
      orders ? mergeOrder(orders, order) : orders,
    );
    void invalidateAfterTrade(queryClient, { keepOrders: true });
  });
}

/**
 * Your Positions (GET /trading/positions), marked to market: pushed on the user's
 * `spot-positions:<userId>` channel, polled only while no authenticated socket is open.
 */
export function usePositions() {
  const queryClient = useQueryClient();
  const userId = useRealtimeUserId();
  useChannel(userId ? spotPositionsChannel(userId) : null, (positions) => {
    if (!('error' in positions)) queryClient.setQueryData(queryKeys.trading.positions, positions);
  });
  return useQuery({
    queryKey: queryKeys.trading.positions,
    queryFn: ({ signal }) => tradingApi.getPositions(signal),
    refetchInterval: userId ? false : POSITIONS_POLL_MS,
  });
}

/**
 * All Trades: the latest 100 fills (part 2 §2, §9). A fill is an order change, pushed as
 * `order_update` (which reads this again); every 5 s only while the socket is down.
 */
export function useTradesFeed() {
  const isLive = useIsRealtimeLive();
  return useQuery({
    queryKey: queryKeys.trading.trades(TRADES_FEED_LIMIT),
    queryFn: ({ signal }) => tradingApi.getTrades(TRADES_FEED_LIMIT, signal),
    refetchInterval: isLive ? false : TRADES_FEED_POLL_MS,
  });
}

/**
 * The pair's order book (GET /trading/orderbook/{symbol}), read and pushed (`spot-book:<PAIR>`)
 * only once the pair is known to be tradable: an untradable pair (`isTradable` false, with the
 * server's `reason`) is never asked for. Polled only while the socket is down.
 */
export function useOrderBook(pairId: string) {
  const queryClient = useQueryClient();
  const isLive = useIsRealtimeLive();
  const tradability = usePairTradability(pairId);
  useChannel(tradability.canPoll ? spotBookChannel(pairId) : null, (book) => {
    if (!('error' in book)) queryClient.setQueryData(queryKeys.trading.orderBook(pairId), book);
  });
  const query = useQuery({
    queryKey: queryKeys.trading.orderBook(pairId),
    queryFn: ({ signal }) => tradingApi.getOrderBook(pairId, signal),
    refetchInterval: isLive ? false : ORDER_BOOK_POLL_MS,
    staleTime: 1_000,
    enabled: tradability.canPoll,
  });
  return { ...query, isTradable: tradability.isTradable, notTradableReason: tradability.reason };
}

/**
 * Balances for the pair: POST /trading/suggestion (SOL, USDC, the pair's base and quote, read from
 * the chain). The wallet's total value comes from the portfolio (see the balances strip).
 */
export function usePairBalances(pairId: string) {
  const isLive = useIsRealtimeLive();
  const { canPoll } = usePairTradability(pairId);
  const suggestion = useQuery({
    queryKey: queryKeys.trading.suggestion(pairId),
    queryFn: () => tradingApi.suggestion(pairId),
    refetchInterval: isLive ? false : BALANCES_POLL_MS,
    // The suggestion names the pair: an untradable pair would answer 404 every 30 s.
    enabled: canPoll,
  });
  return { suggestion };
}

/**
 * Shows `message` as an error toast when a read starts failing, once per failure: a feed polled
 * every 5 s toasts again only after it has recovered and failed anew.
 */
export function useFailureToast(isFailing: boolean, message: string): void {
  const hasToasted = useRef(false);
  useEffect(() => {
    if (isFailing && !hasToasted.current) notify.error(message);
    hasToasted.current = isFailing;
  }, [isFailing, message]);
}

/** Toast when the keeper fills a resting limit order (wording ours). */
export function getLimitFilledMessage(order: Pick<TSpotOrder, 'side' | 'symbol'>): string {
  return `Limit ${order.side.toLowerCase()} order filled on ${order.symbol}`;
}

/**
 * Watches Your Spot Orders for a Pending limit order the keeper has since filled: toasts it and
 * reads positions, balances and fills again (they changed without any action on this page).
 */
export function useLimitFillWatcher(orders: readonly TSpotOrder[] | undefined): void {
  const queryClient = useQueryClient();
  const pendingIds = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (!orders) return;
    const previous = pendingIds.current;
    pendingIds.current = new Set(
      orders.filter((order) => order.status === 'Pending').map((order) => order.id),
    );
    if (!previous) return;
    const filled = orders.filter((order) => order.status === 'Filled' && previous.has(order.id));
    if (filled.length === 0) return;
    for (const order of filled) notify.success(getLimitFilledMessage(order));
    void invalidateAfterTrade(queryClient, { keepOrders: true });
  }, [orders, queryClient]);
}

/**
 * After an order or a cancel (part 2 §4): the answered order shows at once, and 2 s later orders,
 * positions, balances, fills and the book are read again. Pending refreshes are dropped when the
 * page goes away.
 */
export function useOrderRefresh(): (order?: TSpotOrder | null) => void {
  return useRefreshAfterTrade(SPOT_ORDER_REFRESH_DELAY_MS);
}
