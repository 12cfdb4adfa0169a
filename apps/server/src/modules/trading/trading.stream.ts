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
import { pause, type RecurringJob } from '../../jobs/scheduler';
import { isAppError } from '../../lib/app-error';
import type { RealtimeHub } from '../realtime/realtime.service';

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
 * marked at the mid; the hub lets only that user's socket subscribe). Like the market stream, each
 * tick computes only the channels that have subscribers here, so no cross-process fan-out is needed.
 */
export function createTradingStream(deps: TradingStreamDeps) {
  const { hub, trading, log } = deps;
  /** Channels that failed with a client error (an unknown pair): not recomputed every tick. */
  const rejected = new Set<ChannelName>();

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

  /** Computes and broadcasts every subscribed spot channel once. Returns the channels published. */
  async function tick(): Promise<number> {
    let published = 0;
    const active = new Set(hub.activeChannels());
    for (const channel of rejected) if (!active.has(channel)) rejected.delete(channel);
    for (const channel of active) {
      if (rejected.has(channel)) continue;
      try {
        if (await publish(channel)) published += 1;
      } catch (error) {
        if (isAppError(error) && error.status < 500) {
          // An unknown pair: tell the subscribers once, then leave the channel alone.
          rejected.add(channel);
          hub.broadcast(channel, { error: error.message, code: error.code });
        } else {
          log.warn({ err: error, channel }, 'spot channel tick failed');
        }
      }
    }
    return published;
  }

  return {
    tick,
    /** The stream as a per-process job, a tick every period just after the market's own. */
    job(): RecurringJob {
      return {
        name: 'trading-stream',
        intervalMs: 0,
        async run(signal) {
          await pause(deps.tickMs - (deps.now().getTime() % deps.tickMs) + 50, signal);
          if (!signal.aborted) await tick();
        },
      };
    },
  };
}

export type TradingStream = ReturnType<typeof createTradingStream>;
