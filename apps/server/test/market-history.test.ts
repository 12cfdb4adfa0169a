import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCandle } from '@solterm/contracts';
import type { SyncReport } from '../src/modules/market/simulator/candle-store';
import type { PriceProcess } from '../src/modules/market/simulator/price-process';
import type { SimulatedToken } from '../src/modules/market/simulator/simulated-tokens';
import {
  call,
  createClock,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';

const NOW = new Date('2026-03-02T08:15:30Z');

/** The simulator behind an app, with the extras the tests drive directly. */
interface Simulator {
  syncHistory(): Promise<SyncReport>;
  priceProcess: PriceProcess;
  tokens: readonly SimulatedToken[];
}
const simulatorOf = (app: TestApp) => app.market.data as unknown as Simulator;

async function counts(app: TestApp): Promise<Record<string, number>> {
  const result = (await app.database.db.execute(
    `select t.symbol, c.resolution_seconds as resolution, count(*)::int as count, min(c.open_time) as first, max(c.open_time) as last
     from market_candles c join market_tokens t on t.id = c.token_id group by 1, 2`,
  )) as unknown as {
    rows: Array<{ symbol: string; resolution: number; count: number; first: number; last: number }>;
  };
  const out: Record<string, number> = {};
  for (const row of result.rows) {
    out[`${row.symbol}:${row.resolution}`] = row.count;
    out[`${row.symbol}:${row.resolution}:first`] = Number(row.first);
    out[`${row.symbol}:${row.resolution}:last`] = Number(row.last);
  }
  return out;
}

describe.each(databaseTargets())('stored market history on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  const env = {
    MARKET_BACKFILL: 'await',
    MARKET_BACKFILL_HOURLY_DAYS: '2',
    MARKET_BACKFILL_MINUTE_DAYS: '1',
    MARKET_BACKFILL_TOKENS: 'SOL,BONK',
    MARKET_SEED: 'history-test',
    MARKET_TICK_MS: '3600000',
  };
  const clock = createClock(NOW);
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({ database, env, clock });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('backfills the configured window at first start, in rows of one candle', async () => {
    // Given a first start with a two-day hourly and one-day minute window for SOL and BONK
    const stored = await counts(app);
    // Then every closed candle of the window is stored
    const lastClosedHour = Math.floor(nowSeconds() / 3600) * 3600 - 3600;
    const lastClosedMinute = Math.floor(nowSeconds() / 60) * 60 - 60;
    expect(stored['SOL:3600']).toBe(48);
    expect(stored['SOL:3600:last']).toBe(lastClosedHour);
    expect(stored['SOL:60']).toBe(1440);
    expect(stored['SOL:60:last']).toBe(lastClosedMinute);
    expect(stored['BONK:3600']).toBe(48);
  });

  it('stores exactly what the deterministic process generates', async () => {
    const simulator = simulatorOf(app);
    const sol = simulator.tokens.find((token) => token.symbol === 'SOL')!;
    const hour = Math.floor(nowSeconds() / 3600) - 5;
    const result = (await app.database.db.execute(
      `select c.open::text as open, c.high::text as high, c.low::text as low, c.close::text as close, c.volume_usd::text as volume
       from market_candles c join market_tokens t on t.id = c.token_id
       where t.symbol = 'SOL' and c.resolution_seconds = 3600 and c.open_time = ${hour * 3600}`,
    )) as unknown as { rows: Array<Record<string, string>> };
    const expected = simulator.priceProcess.hourCandle(sol.params, hour);
    expect(result.rows[0]).toEqual({
      open: String(expected.open),
      high: String(expected.high),
      low: String(expected.low),
      close: String(expected.close),
      volume: (expected.volumeCents / 100).toFixed(2),
    });
  });

  it('extends the history as time passes and keeps the minute window bounded', async () => {
    // When two hours pass and the extension job runs
    clock.advance(2 * 3600 * 1000);
    const report = await simulatorOf(app).syncHistory();
    // Then the closed candles were appended and minutes older than the window pruned
    const stored = await counts(app);
    expect(report.candlesWritten).toBe(2 * (2 + 120));
    expect(stored['SOL:3600']).toBe(50);
    expect(stored['SOL:3600:last']).toBe(Math.floor(nowSeconds() / 3600) * 3600 - 3600);
    expect(stored['SOL:60']).toBe(1440);
    expect(stored['SOL:60:last']).toBe(Math.floor(nowSeconds() / 60) * 60 - 60);
    // And a second run with nothing new writes nothing
    expect((await simulatorOf(app).syncHistory()).candlesWritten).toBe(0);
  });

  it('serves charts that continue seamlessly from the stored candles to the forming one', async () => {
    const { body } = await call<{ candles: TCandle[] }>(app, {
      method: 'GET',
      url: '/api/market/chart/SOL?interval=1M&limit=5',
    });
    const candles = body.data.candles;
    expect(candles).toHaveLength(5);
    for (let index = 1; index < candles.length; index += 1) {
      expect(candles[index]!.time - candles[index - 1]!.time).toBe(60);
      expect(candles[index]!.open).toBe(candles[index - 1]!.close);
    }
    expect(candles.at(-1)!.time).toBe(Math.floor(nowSeconds() / 60) * 60);
  });

  it('keeps history across restarts and rebuilds it when the seed changes', async () => {
    await app.close();
    // A restart with the same seed reuses every stored candle
    app = await createTestApp({ database, env, clock });
    expect((await simulatorOf(app).syncHistory()).candlesWritten).toBe(0);
    const before = await call<{ candles: TCandle[] }>(app, {
      method: 'GET',
      url: '/api/market/chart/SOL?interval=1H&limit=3',
    });
    await app.close();

    // A restart with another seed replaces the history with the new market's
    app = await createTestApp({ database, env: { ...env, MARKET_SEED: 'another-market' }, clock });
    const stored = await counts(app);
    expect(stored['SOL:3600']).toBe(48);
    const after = await call<{ candles: TCandle[] }>(app, {
      method: 'GET',
      url: '/api/market/chart/SOL?interval=1H&limit=3',
    });
    expect(after.body.data.candles[0]!.close).not.toBe(before.body.data.candles[0]!.close);
  });
});
