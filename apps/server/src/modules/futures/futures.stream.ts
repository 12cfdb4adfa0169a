import type { FastifyBaseLogger } from 'fastify';
import {
  FUTURES_ACCOUNT_CHANNEL_PREFIX,
  FUTURES_MARKET_CHANNEL_PREFIX,
  futuresAccountChannel,
  futuresMarketChannel,
  type ChannelName,
} from '@solterm/contracts';
import { pause, type RecurringJob } from '../../jobs/scheduler';
import { isAppError } from '../../lib/app-error';
import type { RealtimeHub } from '../realtime/realtime.service';
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
 * its own replica of the venue.
 */
export function createFuturesStream(deps: FuturesStreamDeps) {
  const { hub, venue, log } = deps;
  /** Channels that failed with a client error (an unknown market): not recomputed every tick. */
  const rejected = new Set<ChannelName>();

  async function publish(channel: ChannelName): Promise<boolean> {
    if (channel.startsWith(FUTURES_MARKET_CHANNEL_PREFIX)) {
      const symbol = channel.slice(FUTURES_MARKET_CHANNEL_PREFIX.length);
      try {
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

  /** Computes and broadcasts every subscribed futures channel once. Returns the channels published. */
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
          // An unknown market: tell the subscribers once, then leave the channel alone.
          rejected.add(channel);
          hub.broadcast(channel, { error: error.message, code: error.code });
        } else {
          log.warn({ err: error, channel }, 'futures channel tick failed');
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
        name: 'futures-stream',
        intervalMs: 0,
        async run(signal) {
          await pause(deps.tickMs - (deps.now().getTime() % deps.tickMs) + 50, signal);
          if (!signal.aborted) await tick();
        },
      };
    },
  };
}

export type FuturesStream = ReturnType<typeof createFuturesStream>;
