import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { createRealtimeHub } from './realtime.service';

/**
 * A PostgreSQL stand-in whose NOTIFYs finish in the reverse of the order they were sent (as two
 * statements on two pooled connections may): what a listener gets is the order in which they finished.
 */
function reorderingDatabase() {
  const delivered: string[] = [];
  let pending = 0;
  const database = {
    kind: 'postgres',
    async notify(_channel: string, payload: string) {
      // The first statement in flight is the slowest.
      const wait = pending === 0 ? 30 : 1;
      pending += 1;
      await new Promise((resolve) => setTimeout(resolve, wait));
      pending -= 1;
      delivered.push(payload);
    },
    async listen() {
      return async () => undefined;
    },
  } as unknown as Database;
  return { database, delivered };
}

const progress = (percentage: number) => ({
  type: 'backtest_progress' as const,
  data: {
    bot_id: 'bot',
    state: 'running' as const,
    queue_ahead: 0,
    candles_done: percentage,
    candles_total: 100,
    progress_percentage: percentage,
  },
});

const percentagesOf = (payloads: string[]) =>
  payloads.map(
    (payload) =>
      (JSON.parse(payload) as { message: ReturnType<typeof progress> }).message.data.progress_percentage,
  );

describe('the realtime hub across processes', () => {
  const log = { warn() {} } as unknown as FastifyBaseLogger;

  it("sends a user's messages in the order they were published, however long each NOTIFY takes", async () => {
    const { database, delivered } = reorderingDatabase();
    const hub = createRealtimeHub({ database, log, now: () => new Date() });
    await Promise.all([46, 93, 100].map((percentage) => hub.publish('alice', progress(percentage))));
    expect(percentagesOf(delivered)).toEqual([46, 93, 100]);
  });

  it("does not hold one user's messages behind another's", async () => {
    const { database, delivered } = reorderingDatabase();
    const hub = createRealtimeHub({ database, log, now: () => new Date() });
    await Promise.all([hub.publish('alice', progress(46)), hub.publish('bob', progress(93))]);
    // Bob's was sent while Alice's slow one was in flight, and arrived first.
    expect(percentagesOf(delivered)).toEqual([93, 46]);
  });
});
