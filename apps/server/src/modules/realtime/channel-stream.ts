import type { FastifyBaseLogger } from 'fastify';
import type { ChannelName } from '@solterm/contracts';
import { pause, type RecurringJob } from '../../jobs/scheduler';
import { isAppError } from '../../lib/app-error';
import type { RealtimeHub } from './realtime.service';

export interface ChannelStreamDeps {
  hub: RealtimeHub;
  /** The job's name (`trading-stream`, `futures-stream`). */
  name: string;
  /**
   * Computes and broadcasts one channel subscribed in this process when it is this stream's;
   * false when it is not (or has nothing to send yet). An AppError under 500 refuses the channel.
   */
  publish(channel: ChannelName): Promise<boolean>;
  /** Tick period: the market's. */
  tickMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * A stream of channels that move with the market, for this process's own subscribers: each tick
 * hands every channel subscribed here to `publish`, so only what someone listens to is computed and
 * no cross-process fan-out is needed. A channel refused with a client error (an unknown pair or
 * market) is told so once and then left alone while it keeps subscribers; any other failure is
 * logged and tried again the next tick.
 */
export function createChannelStream(deps: ChannelStreamDeps) {
  const { hub, log } = deps;
  /** Channels that failed with a client error: not recomputed every tick. */
  const rejected = new Set<ChannelName>();

  /** Computes and broadcasts every subscribed channel of the stream once. Returns the channels published. */
  async function tick(): Promise<number> {
    let published = 0;
    const active = new Set(hub.activeChannels());
    for (const channel of rejected) if (!active.has(channel)) rejected.delete(channel);
    for (const channel of active) {
      if (rejected.has(channel)) continue;
      try {
        if (await deps.publish(channel)) published += 1;
      } catch (error) {
        if (isAppError(error) && error.status < 500) {
          rejected.add(channel);
          hub.broadcast(channel, { error: error.message, code: error.code });
        } else {
          log.warn({ err: error, channel }, `${deps.name} tick failed`);
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
        name: deps.name,
        intervalMs: 0,
        async run(signal) {
          await pause(deps.tickMs - (deps.now().getTime() % deps.tickMs) + 50, signal);
          if (!signal.aborted) await tick();
        },
      };
    },
  };
}

export type ChannelStream = ReturnType<typeof createChannelStream>;
