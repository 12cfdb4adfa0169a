import type { FastifyBaseLogger } from 'fastify';
import {
  FUTURES_ACCOUNT_CHANNEL_PREFIX,
  FUTURES_MARKET_CHANNEL_PREFIX,
  futuresAccountChannel,
  futuresMarketChannel,
  type ChannelName,
} from '@solterm/contracts';
import { isAppError } from '../../lib/app-error';
import { createChannelStream, type ChannelStream, type RealtimeHub } from '../realtime/realtime.service';
import type { PerpVenue } from './perp-venue';

export interface FuturesStreamDeps {
  hub: RealtimeHub;
  venue: PerpVenue;
  /** The wallet a user's account is shown with (their Solana wallet), or null. */
  walletAddressOf(userId: string): Promise<string | null>;
  /** Tick period: the market's (the venue's oracles follow the market feed). */
  tickMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Pushes the futures channels that move with the oracle to this process's subscribers:
 * `futures-market:<SYMBOL>` (a market's prices and statistics, public) and `futures-account:<userId>`
 * (the account and positions marked to the oracle; the hub lets only that user's socket subscribe).
 * A change to an account is pushed at once by the fan-out (futures-fan-out.ts); this tick keeps the
 * marks current between changes. Each process computes only the channels subscribed there, from
 * its own replica of the venue (realtime's channel stream); an unknown market is told once.
 */
export function createFuturesStream(deps: FuturesStreamDeps): ChannelStream {
  const { hub, venue } = deps;

  async function publish(channel: ChannelName): Promise<boolean> {
    if (channel.startsWith(FUTURES_MARKET_CHANNEL_PREFIX)) {
      const symbol = channel.slice(FUTURES_MARKET_CHANNEL_PREFIX.length);
      try {
        // The local venue brings the market up to the feed first (a watched market stays current).
        const { order_book: _book, ...stats } = await venue.market(symbol);
        hub.broadcast(futuresMarketChannel(symbol), stats);
        return true;
      } catch (error) {
        // No oracle price yet (the keeper has not run): nothing to show, not a reason to give up.
        if (isAppError(error) && error.code === 'FUTURES__NO_MARKET_PRICE') return false;
        throw error;
      }
    }
    if (channel.startsWith(FUTURES_ACCOUNT_CHANNEL_PREFIX) && venue.trading) {
      const userId = channel.slice(FUTURES_ACCOUNT_CHANNEL_PREFIX.length);
      // The hub admits `<prefix><userId>:<more>` for the user too; this channel has no such form.
      if (userId.includes(':')) return false;
      const solanaWalletAddress = await deps.walletAddressOf(userId);
      hub.broadcast(
        futuresAccountChannel(userId),
        await venue.trading.accountTick({ id: userId, solanaWalletAddress }),
      );
      return true;
    }
    return false;
  }

  return createChannelStream({ ...deps, name: 'futures-stream', publish });
}

export type FuturesStream = ChannelStream;
