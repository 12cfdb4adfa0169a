import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCandle, TTokenMarketData } from '@solterm/contracts';
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
const HOUR = 3600;
const DAY = 86_400;

/** The simulator behind an app, with the extras the tests read directly. */
interface Simulator {
  priceProcess: PriceProcess;
  tokens: readonly SimulatedToken[];
  cacheStats(): { chunks: number; candles: number };
}
const simulatorOf = (app: TestApp) => app.market.data as unknown as Simulator;

/**
 * The simulator's price is a pure function of (seed, token, second), so its history is computed on
 * demand (with a bounded cache) instead of being written at first start: a fresh data directory
 * stays small and the first minute after start is not spent inserting a million rows.
 */
describe.each(databaseTargets())('market history computed on demand on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  const env = { MARKET_SEED: 'history-test', MARKET_TICK_MS: '3600000' };
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

  const chart = (query: string) =>
    call<{ candles: TCandle[] }>(app, { method: 'GET', url: `/api/market/chart/${query}` });

  it('stores no candles: the database has no market history tables', async () => {
    const result = (await app.database.db.execute(
      `select table_name from information_schema.tables
       where table_schema = current_schema() and table_name like 'market_%'`,
    )) as unknown as { rows: Array<{ table_name: string }> };
    expect(result.rows.map((row) => row.table_name)).toEqual([]);
  });

  it('serves a year of hourly candles, each the deterministic process own hour candle', async () => {
    const from = nowSeconds() - 365 * DAY + HOUR;
    const { status, body } = await chart(`SOL?interval=1H&from=${from}`);
    expect(status).toBe(200);
    const candles = body.data.candles;
    expect(candles).toHaveLength(365 * 24);
    const { priceProcess, tokens } = simulatorOf(app);
    const sol = tokens.find((token) => token.symbol === 'SOL')!;
    for (const index of [0, 1234, 5000, candles.length - 2]) {
      const candle = candles[index]!;
      const expected = priceProcess.hourCandle(sol.params, candle.time / HOUR);
      expect([candle.open, candle.high, candle.low, candle.close]).toEqual([
        expected.open,
        expected.high,
        expected.low,
        expected.close,
      ]);
      expect(candle.volume).toBe(expected.volumeCents / 100);
    }
    for (const candle of candles) {
      expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
      expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
    }
  });

  it('keeps every interval within its history window: one year of hours, seven days of minutes', async () => {
    const hours = await chart(`SOL?interval=1H&from=${nowSeconds() - 400 * DAY}`);
    expect(hours.body.data.candles[0]!.time).toBe(Math.floor(nowSeconds() / HOUR) * HOUR - 365 * 24 * HOUR);
    const minutes = await chart(
      `SOL?interval=1M&from=${nowSeconds() - 8 * DAY}&to=${nowSeconds() - 6 * DAY}`,
    );
    expect(minutes.body.data.candles[0]!.time).toBe(Math.floor(nowSeconds() / 60) * 60 - 7 * 24 * 60 * 60);
    for (const interval of ['1S', '1M', '5M', '15M', '1H', '4H', '12H', '1D']) {
      const { status, body } = await chart(`BONK?interval=${interval}&limit=5`);
      expect(status, interval).toBe(200);
      expect(body.data.candles.length, interval).toBeGreaterThan(0);
    }
  });

  it('extends the history as time passes, the latest candle agreeing with the live price', async () => {
    clock.advance(2 * HOUR * 1000 + 17_000);
    const { body } = await chart('SOL?interval=1M&limit=5');
    const candles = body.data.candles;
    expect(candles.at(-1)!.time).toBe(Math.floor(nowSeconds() / 60) * 60);
    for (let index = 1; index < candles.length; index += 1) {
      expect(candles[index]!.time - candles[index - 1]!.time).toBe(60);
      expect(candles[index]!.open).toBe(candles[index - 1]!.close);
    }
    const market = await call<TTokenMarketData>(app, { method: 'GET', url: '/api/market/data/SOL' });
    expect(candles.at(-1)!.close).toBe(market.body.data.price);
  });

  it('bounds the candle cache', async () => {
    for (const symbol of ['SOL', 'BTC', 'ETH', 'BONK', 'WIF', 'JUP']) {
      await chart(`${symbol}?interval=1H&from=${nowSeconds() - 365 * DAY + HOUR}`);
    }
    expect(simulatorOf(app).cacheStats().candles).toBeLessThanOrEqual(1_000_000);
    expect(simulatorOf(app).cacheStats().candles).toBeGreaterThan(0);
  });

  it('serves the same history after a restart, and another market for another seed', async () => {
    const before = await chart('SOL?interval=1H&limit=3');
    await app.close();
    app = await createTestApp({ database, env, clock });
    const again = await chart('SOL?interval=1H&limit=3');
    expect(again.body.data.candles).toEqual(before.body.data.candles);
    await app.close();

    app = await createTestApp({ database, env: { ...env, MARKET_SEED: 'another-market' }, clock });
    const after = await chart('SOL?interval=1H&limit=3');
    expect(after.body.data.candles[0]!.close).not.toBe(before.body.data.candles[0]!.close);
  });
});
