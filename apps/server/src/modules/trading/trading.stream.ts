import type { FastifyBaseLogger } from 'fastify';
import {
  SPOT_BOOK_CHANNEL_PREFIX,
  SPOT_POSITIONS_CHANNEL_PREFIX,
  spotBookChannel,
  spotPositionsChannel,
  type ChannelName,
  type TOrderBook,
  type TPosition,
} from '@solterm/contracts';
import { createChannelStream, type ChannelStream, type RealtimeHub } from '../realtime/realtime.service';

export interface TradingStreamDeps {
  hub: RealtimeHub;
  trading: {
    orderBook(symbol: string): Promise<TOrderBook>;
    positions(owner: { id: string }): Promise<TPosition[]>;
  };
  /** Tick period: the market's (the maker's ladder and the marks move with every price tick). */
  tickMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Pushes the spot channels that move with the market to this process's subscribers:
 * `spot-book:<PAIR>` (the maker's ladder, public) and `spot-positions:<userId>` (a user's positions
 * marked at the mid; the hub lets only that user's socket subscribe). Each tick computes only the
 * channels that have subscribers here (realtime's channel stream).
 */
export function createTradingStream(deps: TradingStreamDeps): ChannelStream {
  const { hub, trading } = deps;

  async function publish(channel: ChannelName): Promise<boolean> {
    if (channel.startsWith(SPOT_BOOK_CHANNEL_PREFIX)) {
      const pair = channel.slice(SPOT_BOOK_CHANNEL_PREFIX.length);
      hub.broadcast(spotBookChannel(pair), await trading.orderBook(pair));
      return true;
    }
    if (channel.startsWith(SPOT_POSITIONS_CHANNEL_PREFIX)) {
      const userId = channel.slice(SPOT_POSITIONS_CHANNEL_PREFIX.length);
      // The hub admits `<prefix><userId>:<more>` for the user too; this channel has no such form.
      if (userId.includes(':')) return false;
      hub.broadcast(spotPositionsChannel(userId), await trading.positions({ id: userId }));
      return true;
    }
    return false;
  }

  // An unknown pair is told once (a client error), then left alone.
  return createChannelStream({ ...deps, name: 'trading-stream', publish });
}

export type TradingStream = ChannelStream;
