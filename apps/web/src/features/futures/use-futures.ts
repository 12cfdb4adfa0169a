import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  futuresAccountChannel,
  futuresMarketChannel,
  FUTURES_MARKET_UPDATE_MS,
  FUTURES_MESSAGES,
  FUTURES_ORDER_BOOK_REFRESH_MS,
  type TFuturesMarket,
  type TFuturesOrder,
  type TFuturesPosition,
} from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { useChannel, useIsRealtimeLive, useRealtimeEvent, useRealtimeUserId } from '../../lib/ws-client';
import { notify } from '../../lib/toast';
import { decodeBase64, encodeBase64, tradingApi } from '../trading';
import { isUserRejection, useWallet } from '../wallet';
import { futuresApi } from './futures-api';

export function useFuturesPairs() {
  return useQuery({
    queryKey: queryKeys.futures.pairs,
    queryFn: ({ signal }) => futuresApi.pairs(signal),
    refetchInterval: FUTURES_MARKET_UPDATE_MS,
  });
}

/**
 * A market's prices and book, pushed: the book on `futures-book:<symbol>` whenever the venue's book
 * changes, the prices and statistics (oracle, mark, funding, open interest, volume) on
 * `futures-market:<symbol>` every market tick. The whole market is read every 2 s (spec §9) only
 * while the socket is down.
 */
export function useFuturesMarket(symbol: string | null) {
  const queryClient = useQueryClient();
  const isLive = useIsRealtimeLive();
  const merge = (update: Partial<TFuturesMarket>) => {
    if (!symbol) return;
    queryClient.setQueryData<TFuturesMarket>(queryKeys.futures.market(symbol), (market) =>
      market ? { ...market, ...update } : market,
    );
  };
  useChannel(symbol ? `futures-book:${symbol}` : null, (book) => {
    if (!('error' in book)) merge({ order_book: book });
  });
  useChannel(symbol ? futuresMarketChannel(symbol) : null, (stats) => {
    if (!('error' in stats)) merge(stats);
  });
  return useQuery({
    queryKey: queryKeys.futures.market(symbol ?? ''),
    queryFn: ({ signal }) => futuresApi.market(symbol!, signal),
    enabled: symbol !== null,
    refetchInterval: isLive ? false : FUTURES_ORDER_BOOK_REFRESH_MS,
  });
}

export function useFuturesFunding(symbol: string | null) {
  return useQuery({
    queryKey: queryKeys.futures.funding(symbol ?? ''),
    queryFn: ({ signal }) => futuresApi.funding(symbol!, signal),
    enabled: symbol !== null,
    refetchInterval: FUTURES_MARKET_UPDATE_MS,
  });
}

/**
 * The user's account, orders, positions and fills. The account and positions, marked to the
 * oracle, are pushed on the user's `futures-account:<userId>` channel (at once after every change,
 * and every market tick) and polled every 2 s only while no authenticated socket is open. A
 * `futures_update` push (a fill, a deposit landing, funding, a liquidation) reads the orders and
 * fills again and says why when the account was liquidated; orders are polled every 30 s while the
 * socket is down.
 */
export function useFuturesUser(enabled: boolean) {
  const queryClient = useQueryClient();
  const isLive = useIsRealtimeLive();
  const userId = useRealtimeUserId();
  useChannel(enabled && userId ? futuresAccountChannel(userId) : null, (tick) => {
    if ('error' in tick) return;
    queryClient.setQueryData(queryKeys.futures.account, tick.account);
    queryClient.setQueryData(queryKeys.futures.positions, tick.positions);
  });
  useRealtimeEvent('futures_update', ({ data }) => {
    if (data.reason === 'liquidation') notify.error(data.message);
    void queryClient.invalidateQueries({ queryKey: queryKeys.futures.orders });
    void queryClient.invalidateQueries({ queryKey: queryKeys.futures.trades });
  });
  const markInterval = userId ? false : FUTURES_ORDER_BOOK_REFRESH_MS;
  const account = useQuery({
    queryKey: queryKeys.futures.account,
    queryFn: ({ signal }) => futuresApi.account(signal),
    enabled,
    refetchInterval: markInterval,
  });
  const orders = useQuery({
    queryKey: queryKeys.futures.orders,
    queryFn: ({ signal }) => futuresApi.orders(signal),
    enabled,
    refetchInterval: isLive ? false : FUTURES_MARKET_UPDATE_MS,
  });
  const positions = useQuery({
    queryKey: queryKeys.futures.positions,
    queryFn: ({ signal }) => futuresApi.positions(signal),
    enabled,
    refetchInterval: markInterval,
  });
  return { account, orders, positions };
}

/** The prices a chart draws for a market: the position's entry, liquidation and TP/SL, and the waiting trigger orders. */
export interface FuturesPriceLevels {
  entry: number | null;
  liquidation: number | null;
  takeProfit: number | null;
  stopLoss: number | null;
  /** Standalone stop / take profit market orders still waiting (a position's TP/SL are above). */
  triggers: { id: string; kind: 'stop' | 'take_profit'; side: 'Long' | 'Short'; price: number }[];
}

export function futuresPriceLevels(
  symbol: string | null,
  positions: readonly TFuturesPosition[] | undefined,
  orders: readonly TFuturesOrder[] | undefined,
): FuturesPriceLevels {
  const position = positions?.find((entry) => entry.symbol === symbol);
  const number = (text: string | null | undefined) => (text ? Number(text) : null);
  return {
    entry: number(position?.entry_price),
    liquidation: number(position?.liquidation_price),
    takeProfit: number(position?.take_profit?.trigger_price),
    stopLoss: number(position?.stop_loss?.trigger_price),
    triggers: (orders ?? [])
      .filter((order) => order.symbol === symbol && order.status === 'Open' && order.tpsl === null)
      .flatMap((order) =>
        order.trigger_price
          ? [
              {
                id: order.id,
                kind: order.order_type === 'StopMarket' ? ('stop' as const) : ('take_profit' as const),
                side: order.side,
                price: Number(order.trigger_price),
              },
            ]
          : [],
      ),
  };
}

/** {@link futuresPriceLevels} of the signed-in user's position and orders in a market. */
export function useFuturesPriceLevels(symbol: string | null): FuturesPriceLevels {
  const { positions, orders } = useFuturesUser(symbol !== null);
  return futuresPriceLevels(symbol, positions.data, orders.data);
}

function useInvalidateUser() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.futures.user }),
      queryClient.invalidateQueries({ queryKey: queryKeys.wallet.all }),
    ]).then(() => undefined);
}

export function usePlaceFuturesOrder() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateUser();
  return useMutation({
    mutationFn: futuresApi.order,
    // A fill moves the market too (book, open interest, volume).
    onSettled: () =>
      Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: queryKeys.futures.markets })]),
  });
}

/** The account's leverage in a market: its own action (an order never changes it). */
export function useSetFuturesLeverage() {
  const invalidate = useInvalidateUser();
  return useMutation({
    mutationFn: ({ symbol, leverage }: { symbol: string; leverage: number }) =>
      futuresApi.setLeverage(symbol, leverage),
    onSettled: invalidate,
  });
}

export function useCancelFuturesOrder() {
  const invalidate = useInvalidateUser();
  return useMutation({ mutationFn: futuresApi.cancel, onSettled: invalidate });
}

export function useSetFuturesTpsl() {
  const invalidate = useInvalidateUser();
  return useMutation({ mutationFn: futuresApi.tpsl, onSettled: invalidate });
}

export function useCloseFuturesPosition() {
  const invalidate = useInvalidateUser();
  return useMutation({ mutationFn: futuresApi.close, onSettled: invalidate });
}

export type CollateralStage = 'idle' | 'building' | 'signing' | 'sending';

/**
 * Deposits (and the initializing first deposit): the server builds the USDC transfer into the
 * vault, the wallet signs it, the relay executes it; the collateral is credited when it lands.
 * Withdrawals are sent by the vault (no signature asked).
 */
export function useCollateral() {
  const wallet = useWallet();
  const invalidate = useInvalidateUser();
  const [stage, setStage] = useState<CollateralStage>('idle');

  async function deposit(amount: string, initialize: boolean) {
    if (!wallet.connected) throw new Error(FUTURES_MESSAGES.connectWallet);
    try {
      setStage('building');
      const built = initialize ? await futuresApi.initialize(amount) : await futuresApi.deposit(amount);
      setStage('signing');
      let signed: Uint8Array;
      try {
        signed = await wallet.signTransaction(decodeBase64(built.unsigned_transaction));
      } catch (error) {
        throw isUserRejection(error) ? new Error('Deposit cancelled in the wallet') : error;
      }
      setStage('sending');
      await tradingApi.executeSignedTransaction(encodeBase64(signed), `futures-deposit-${built.deposit_id}`);
      return built;
    } finally {
      setStage('idle');
      await invalidate();
    }
  }

  async function withdraw(amount: string) {
    try {
      setStage('sending');
      return await futuresApi.withdraw(amount);
    } finally {
      setStage('idle');
      await invalidate();
    }
  }

  return { stage, deposit, withdraw };
}
