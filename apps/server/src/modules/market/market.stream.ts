import type { FastifyBaseLogger } from 'fastify';
import {
  parseMarketChannel,
  PRICES_CHANNEL,
  type ChannelName,
  type TCandle,
  type TCandleTick,
} from '@solterm/contracts';
import { pause, type RecurringJob } from '../../jobs/scheduler';
import { isAppError } from '../../lib/app-error';
import type { RealtimeHub } from '../realtime/realtime.service';
import type { MarketService } from './market.service';

export interface MarketStreamDeps {
  hub: RealtimeHub;
  market: MarketService;
  /** Tick period (1000 ms: prices tick every second). */
  tickMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Pushes market ticks to /ws subscribers: `prices`, `price:<SYMBOL>` and
 * `candles:<BASE/QUOTE>:<interval>` (see @solterm/contracts market-channels). Each tick looks at the
 * channels that have subscribers in this process and computes only those; payloads are serialised
 * once per channel by the hub. Every server process runs its own stream (the simulator is
 * deterministic and live data is cached per process), so no cross-process fan-out is needed.
 */
export function createMarketStream(deps: MarketStreamDeps) {
  const { hub, market, log } = deps;
  /** Last candle open time sent per candle channel, to detect when a candle closed. */
  const lastOpen = new Map<ChannelName, number>();
  /** Channels that failed (unknown symbol): not recomputed every tick. */
  const rejected = new Set<ChannelName>();

  async function publishCandles(
    channel: ChannelName,
    pairText: string,
    interval: TCandleTick['interval'],
  ): Promise<void> {
    const pair = await market.resolvePair(pairText);
    const previous = lastOpen.get(channel);
    const candles: TCandle[] = await market.getRecentCandles(pair, interval, previous);
    const forming = candles[candles.length - 1];
    if (!forming) return;
    for (const candle of candles.slice(0, -1)) {
      hub.broadcast(channel, { pair: pair.text, interval, candle, closed: true } satisfies TCandleTick);
    }
    hub.broadcast(channel, {
      pair: pair.text,
      interval,
      candle: forming,
      closed: false,
    } satisfies TCandleTick);
    lastOpen.set(channel, forming.time);
  }

  /** Computes and broadcasts every subscribed market channel once. Returns the channels published. */
  async function tick(): Promise<number> {
    let published = 0;
    const active = new Set(hub.activeChannels());
    for (const channel of lastOpen.keys()) if (!active.has(channel)) lastOpen.delete(channel);
    for (const channel of rejected) if (!active.has(channel)) rejected.delete(channel);
    for (const channel of active) {
      if (rejected.has(channel)) continue;
      const parsed = parseMarketChannel(channel);
      if (!parsed) continue;
      try {
        if (parsed.kind === 'prices') {
          hub.broadcast(PRICES_CHANNEL, await market.getPricesTick());
        } else if (parsed.kind === 'price') {
          hub.broadcast(channel, await market.getPriceTick(parsed.symbol));
        } else {
          await publishCandles(channel, parsed.pair, parsed.interval);
        }
        published += 1;
      } catch (error) {
        if (isAppError(error) && error.status < 500) {
          // An unknown token or pair: tell the subscribers once, then leave the channel alone.
          rejected.add(channel);
          hub.broadcast(channel, { error: error.message, code: error.code });
        } else {
          log.warn({ err: error, channel }, 'market tick failed');
        }
      }
    }
    return published;
  }

  return {
    tick,
    /**
     * The stream as a per-process job (each process serves its own sockets): a tick at the start of
     * every period, aligned to whole seconds as prices change on whole seconds.
     */
    job(): RecurringJob {
      return {
        name: 'market-stream',
        intervalMs: 0,
        async run(signal) {
          await pause(deps.tickMs - (deps.now().getTime() % deps.tickMs) + 5, signal);
          if (!signal.aborted) await tick();
        },
      };
    },
  };
}

export type MarketStream = ReturnType<typeof createMarketStream>;
