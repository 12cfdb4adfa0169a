import { futuresAccountChannel, type TFuturesAccountTick, type TFuturesOrderBook } from '@solterm/contracts';
import { createKeyedQueue } from '../../lib/keyed-queue';
import type { RealtimeHub } from '../realtime/realtime.service';
import type { RecordedEffect } from './futures.repository';
import { PERP_MARKETS } from './perp-markets';
import { createPerpWire } from './perp-wire';

/** Books are pushed at most this often: a burst of commands sends the last state once. */
const BOOK_PUSH_INTERVAL_MS = 200;

/** What a liquidated user is told (the spec's words: why, and where the fee went). */
const LIQUIDATION_MESSAGE =
  'Your futures positions were liquidated: your equity fell below the maintenance margin. They were closed at the market and a liquidation fee went to the insurance fund.';
const ACCOUNT_CHANGED_MESSAGE = 'Your futures account changed';

/**
 * After a command committed, pushes what changed: the touched markets' books (throttled), their
 * trades on `futures-trades:<symbol>`, and to each user whose account changed (an order placed,
 * filled or cancelled, a leverage change, funding, a liquidation, collateral in or out) a
 * `futures_update` and the account on `futures-account:<userId>`, in every server process.
 * Returns the `onEffect` the futures service calls.
 */
export function createFuturesFanOut(deps: {
  hub: RealtimeHub;
  /** A market's book as the ledger holds it now. */
  bookNow(symbol: string): TFuturesOrderBook;
  /** A user's account and positions as the ledger holds them now. */
  accountOf(userId: string): Promise<TFuturesAccountTick>;
}): (effect: RecordedEffect) => void {
  const { hub } = deps;
  const wire = createPerpWire();
  const pendingBooks = new Set<string>();
  const accountPushes = createKeyedQueue();
  let bookTimer: NodeJS.Timeout | undefined;

  function publishBooks() {
    bookTimer = undefined;
    for (const symbol of pendingBooks) {
      void hub.publishChannel(`futures-book:${symbol}`, deps.bookNow(symbol)).catch(() => undefined);
    }
    pendingBooks.clear();
  }

  function publishTrades(effect: RecordedEffect) {
    const bySymbol = new Map<string, typeof effect.fills>();
    for (const fill of effect.fills) bySymbol.set(fill.market, [...(bySymbol.get(fill.market) ?? []), fill]);
    for (const [symbol, fills] of bySymbol) {
      const perp = PERP_MARKETS.find((m) => m.symbol === symbol)!;
      void hub
        .publishChannel(`futures-trades:${symbol}`, {
          symbol,
          trades: fills.map((fill) => ({
            symbol,
            side: fill.side === 'buy' ? ('Long' as const) : ('Short' as const),
            size: wire.size(fill.size, perp),
            price: wire.price(fill.price, perp),
            at: new Date(fill.at).toISOString(),
          })),
        })
        .catch(() => undefined);
    }
  }

  function publishAccounts(effect: RecordedEffect) {
    for (const userId of effect.users) {
      const liquidated = effect.liquidated.includes(userId);
      void hub
        .publish(userId, {
          type: 'futures_update',
          data: liquidated
            ? { reason: 'liquidation', message: LIQUIDATION_MESSAGE }
            : {
                reason: effect.fills.length > 0 ? 'fill' : (effect.transfer ?? 'deposit'),
                message: ACCOUNT_CHANGED_MESSAGE,
              },
        })
        .catch(() => undefined);
      // One after another per user, so an older state never lands after a newer one.
      void accountPushes
        .run(userId, async () =>
          hub.publishChannel(futuresAccountChannel(userId), await deps.accountOf(userId)),
        )
        .catch(() => undefined);
    }
  }

  return (effect) => {
    for (const symbol of effect.markets) pendingBooks.add(symbol);
    if (pendingBooks.size > 0 && !bookTimer) bookTimer = setTimeout(publishBooks, BOOK_PUSH_INTERVAL_MS);
    publishTrades(effect);
    publishAccounts(effect);
  };
}
