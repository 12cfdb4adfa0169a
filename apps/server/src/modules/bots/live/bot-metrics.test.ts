import { describe, expect, it } from 'vitest';
import { metricsOf } from './bot-metrics';
import type { BotRunRow } from './bot-runs.repository';

const START = new Date('2026-11-29T12:00:30Z');

function run(lastCandle: number | null): BotRunRow {
  return {
    id: 'run',
    botId: 'bot',
    userId: 'user',
    mode: 'mainnet',
    status: 'running',
    message: null,
    strategyType: 'sma_crossover',
    config: { interval: '1M' } as BotRunRow['config'],
    initialCash: '1000000000',
    quoteUsdPrice: '1',
    baseDecimals: 9,
    quoteDecimals: 6,
    startedAt: START,
    endsAt: new Date(START.getTime() + 3_600_000),
    stoppedAt: null,
    firstCandle: Date.parse('2026-11-29T12:00:00Z') / 1000,
    lastCandle,
    lastClose: null,
  };
}

describe('a running bot’s current task', () => {
  it('names the next close while it is ahead', () => {
    const metrics = metricsOf(run(null), [], new Date('2026-11-29T12:00:45Z'));
    expect(metrics.current_task).toBe('Next 1M candle closes at 12:01 UTC');
  });

  it('says it is acting on a close that has passed and that the run has not recorded yet', () => {
    // The 12:00 candle closed at 12:01; the run is still on it (deciding, or its trade landing).
    const metrics = metricsOf(run(null), [], new Date('2026-11-29T12:01:02Z'));
    expect(metrics.current_task).toBe('Acting on the 12:01 UTC 1M close');
    // Once recorded, the next close is ahead again.
    const recorded = metricsOf(
      run(Date.parse('2026-11-29T12:00:00Z') / 1000),
      [],
      new Date('2026-11-29T12:01:02Z'),
    );
    expect(recorded.current_task).toBe('Next 1M candle closes at 12:02 UTC');
  });
});
