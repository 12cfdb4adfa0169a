import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHART_INTERVALS,
  MAX_CHART_CANDLES,
  USDC_MINT,
  WRAPPED_SOL_MINT,
  ZChartSchema,
  ZChartColumnsSchema,
  candlesOfColumns,
  type TChart,
  type TChartColumns,
  ZDashboardCoinsSchema,
  ZHolderAnalysisSchema,
  ZHolderStatsSchema,
  ZMarketHistorySchema,
  ZPairPriceSchema,
  ZPoolSchema,
  ZTokenMarketDataSchema,
  ZTokenSearchResultSchema,
  ZTrendingTokenSchema,
  ZEnhancedTrendingTokenSchema,
  ZHistoricalChartSchema,
  type TCandle,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { call, createClock, createTestApp, type TestApp } from './helpers/test-app';

const BONK_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const NOW = new Date('2026-01-15T12:34:56Z');
const NOW_S = NOW.getTime() / 1000;

/** A seeded simulator whose stream ticks rarely (the tests read on demand). */
const MARKET_ENV = {
  MARKET_SEED: 'api-test',
  MARKET_TICK_MS: '3600000',
};

/**
 * A JSON number rounded in decimals: finite, and its shortest text a decimal of at most
 * `significant` significant digits and `decimals` fraction digits.
 */
function isRoundedNumber(value: unknown, limits: { significant?: number; decimals?: number } = {}): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const decimal = new Dec(value);
  return decimal.sd() <= (limits.significant ?? 15) && decimal.decimalPlaces() <= (limits.decimals ?? 100);
}

/** A simulator price: 10 significant digits at most. */
const isPrice = (value: unknown) => isRoundedNumber(value, { significant: 10 });
/** A USD value or a percentage: two decimals at most. */
const isTwoDecimals = (value: unknown) => isRoundedNumber(value, { decimals: 2 });

describe('market API on the simulator', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ env: MARKET_ENV, clock: createClock(NOW) });
  });

  afterAll(async () => {
    await app?.close();
  });

  const get = <T>(url: string) => call<T>(app, { method: 'GET', url });

  describe('GET /api/market/dashboard-coins', () => {
    it('answers btc, eth and sol with a price and a 24 h change as JSON numbers', async () => {
      const { status, body } = await get<Record<string, { price: number; change_24h: number }>>(
        '/api/market/dashboard-coins',
      );
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      expect(ZDashboardCoinsSchema.parse(body.data)).toBeTruthy();
      for (const coin of ['btc', 'eth', 'sol']) {
        expect(typeof body.data[coin]!.price, coin).toBe('number');
        expect(body.data[coin]!.price, coin).toBeGreaterThan(0);
        expect(isPrice(body.data[coin]!.price), coin).toBe(true);
        expect(isTwoDecimals(body.data[coin]!.change_24h), coin).toBe(true);
      }
      expect(body.data.btc!.price).toBeGreaterThan(body.data.eth!.price);
    });

    it('moves when the clock moves and repeats for the same second', async () => {
      const first = (await get<{ sol: { price: number } }>('/api/market/dashboard-coins')).body.data.sol
        .price;
      expect((await get<{ sol: { price: number } }>('/api/market/dashboard-coins')).body.data.sol.price).toBe(
        first,
      );
      app.clock.advance(5000);
      const later = (await get<{ sol: { price: number } }>('/api/market/dashboard-coins')).body.data.sol
        .price;
      app.clock.advance(-5000);
      expect(later).not.toBe(first);
    });
  });

  describe('GET /api/market/data', () => {
    it('lists at least 40 tokens, largest market cap first, with the spec fields', async () => {
      const { status, body } = await get<Array<Record<string, unknown>>>('/api/market/data');
      expect(status).toBe(200);
      expect(body.data.length).toBeGreaterThanOrEqual(40);
      for (const market of body.data) {
        ZTokenMarketDataSchema.parse(market);
        expect(isPrice(market.price), String(market.symbol)).toBe(true);
        for (const field of ['change_24h', 'market_cap', 'volume_24h', 'liquidity_usd']) {
          expect(isTwoDecimals(market[field]), `${String(market.symbol)} ${field}`).toBe(true);
        }
        expect(typeof market.total_supply).toBe('number');
      }
      const caps = body.data.map((market) => new Dec(market.market_cap as number));
      for (let index = 1; index < caps.length; index += 1)
        expect(caps[index - 1]!.gte(caps[index]!)).toBe(true);
      expect(body.data.map((market) => market.market_cap_rank)).toEqual(
        body.data.map((_, index) => index + 1),
      );
    });
  });

  describe('GET /api/market/data/{symbol}', () => {
    it('finds a token by symbol, case-insensitively, and by mint', async () => {
      const bySymbol = await get<{ symbol: string; address: string; price: number; decimals: number }>(
        '/api/market/data/bonk',
      );
      expect(bySymbol.status).toBe(200);
      expect(bySymbol.body.data).toMatchObject({
        symbol: 'BONK',
        address: BONK_MINT,
        decimals: 5,
        price: expect.any(Number),
        circulating_supply: 77_000_000_000_000,
        total_supply: 88_000_000_000_000,
      });
      const byMint = await get<{ symbol: string; price: number }>(`/api/market/data/${BONK_MINT}`);
      expect(byMint.body.data.price).toBe(bySymbol.body.data.price);
    });

    it.each([
      ['BITCO', 'BTC'],
      ['ETHERE', 'ETH'],
      ['SOLAN', 'SOL'],
      ['bitcoin', 'BTC'],
    ])('retries a truncated symbol %s with its full name', async (query, symbol) => {
      const { status, body } = await get<{ symbol: string }>(`/api/market/data/${query}`);
      expect(status).toBe(200);
      expect(body.data.symbol).toBe(symbol);
    });

    it('answers an unknown symbol with a 404 naming it (CHARL → CHARLIE is not listed here)', async () => {
      for (const query of ['NOPE', 'CHARL', 'x']) {
        const { status, body } = await get(`/api/market/data/${query}`);
        expect(status).toBe(404);
        expect(body).toMatchObject({
          success: false,
          code: 'MARKET__TOKEN_NOT_FOUND',
          error: `Token not found: ${query}`,
        });
      }
    });
  });

  describe('GET /api/market/data/{symbol}/history', () => {
    it('answers 100 hourly points by default, oldest first, the last for the hour in progress', async () => {
      const { status, body } = await get<{ points: Array<{ time: number; price: number; volume: number }> }>(
        '/api/market/data/SOL/history',
      );
      expect(status).toBe(200);
      ZMarketHistorySchema.parse(body.data);
      expect(body.data.points).toHaveLength(100);
      expect(body.data.points.at(-1)!.time).toBe(Math.floor(NOW_S / 3600) * 3600);
      const market = await get<{ price: number }>('/api/market/data/SOL');
      expect(body.data.points.at(-1)!.price).toBe(market.body.data.price);
      expect(body.data.points.every((point) => isPrice(point.price) && isTwoDecimals(point.volume))).toBe(
        true,
      );
    });

    it('honours limit', async () => {
      const { body } = await get<{ points: unknown[] }>('/api/market/data/ETH/history?limit=5');
      expect(body.data.points).toHaveLength(5);
    });
  });

  describe('GET /api/market/chart/{symbol}', () => {
    it.each(CHART_INTERVALS)('answers OHLCV candles for interval %s', async (interval) => {
      const { status, body } = await get<{ candles: TCandle[]; interval: string }>(
        `/api/market/chart/SOL?interval=${interval}&limit=50`,
      );
      expect(status).toBe(200);
      ZChartSchema.parse(body.data);
      expect(body.data.interval).toBe(interval);
      expect(body.data.candles.length).toBeGreaterThan(0);
      for (const candle of body.data.candles) {
        for (const field of ['open', 'high', 'low', 'close'] as const) {
          expect(isPrice(candle[field]), field).toBe(true);
        }
        expect(isTwoDecimals(candle.volume)).toBe(true);
        expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
        expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
      }
    });

    it('accepts chart-service interval values (60 = 1H) and aggregates consistently from minutes', async () => {
      const hourly = await get<{ interval: string; candles: TCandle[] }>(
        '/api/market/chart/SOL?interval=60&limit=3',
      );
      expect(hourly.body.data.interval).toBe('1H');
      const closedHour = hourly.body.data.candles[0]!;
      const minutes = await get<{ candles: TCandle[] }>(
        `/api/market/chart/SOL?interval=1&from=${closedHour.time}&to=${closedHour.time + 3540}`,
      );
      expect(minutes.body.data.candles).toHaveLength(60);
      const candles = minutes.body.data.candles;
      expect(candles[0]!.open).toBe(closedHour.open);
      expect(candles.at(-1)!.close).toBe(closedHour.close);
      expect(Math.max(...candles.map((candle) => candle.high))).toBe(closedHour.high);
      expect(Math.min(...candles.map((candle) => candle.low))).toBe(closedHour.low);
      // Summed in decimals, the minutes' volumes are exactly the hour's.
      const volume = candles.reduce((sum, candle) => sum.plus(candle.volume), new Dec(0));
      expect(volume.toFixed(2)).toBe(new Dec(closedHour.volume).toFixed(2));
    });

    it('serves the same candles from the cached history as from the process', async () => {
      // A second read comes from the candle cache; both equal the process's own hour candle.
      await get('/api/market/chart/SOL?interval=1H&limit=48');
      const stored = await get<{ candles: TCandle[] }>('/api/market/chart/SOL?interval=1H&limit=48');
      expect(stored.body.data.candles).toHaveLength(48);
      const direct = app.market.data as unknown as {
        priceProcess: { hourCandle(params: unknown, hour: number): { close: number } };
        tokens: Array<{ symbol: string; params: unknown }>;
      };
      const sol = direct.tokens.find((token) => token.symbol === 'SOL')!;
      const closed = stored.body.data.candles[10]!;
      expect(closed.close).toBe(direct.priceProcess.hourCandle(sol.params, closed.time / 3600).close);
    });

    it('charts a pair quoted in another token', async () => {
      const { status, body } = await get<{ symbol: string; quote: string; candles: TCandle[] }>(
        '/api/market/chart/BTC-SOL?interval=15M&limit=4',
      );
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ symbol: 'BTC/SOL', quote: 'SOL' });
      expect(body.data.candles).toHaveLength(4);
      const pair = await get<{ price: number }>('/api/trading/pair/BTC%2FSOL');
      expect(body.data.candles.at(-1)!.close).toBe(pair.body.data.price);
      expect(body.data.candles.every((candle) => isPrice(candle.high) && isPrice(candle.low))).toBe(true);
    });

    it('answers layout=columns with the same candles as rows, the closed ones computed once per window', async () => {
      const url = `/api/market/chart/BTC-SOL?interval=1M&from=${NOW_S - 600}`;
      const rows = await get<TChart>(url);
      const columns = await get<TChartColumns>(`${url}&layout=columns`);
      expect(columns.status).toBe(200);
      const parsed = ZChartColumnsSchema.parse(columns.body.data);
      expect(candlesOfColumns(parsed.columns)).toEqual(rows.body.data.candles);
      const { candles: _candles, ...head } = rows.body.data;
      expect(parsed).toMatchObject(head);
      expect(rows.body.data.candles).toHaveLength(11);

      // Within the minute the closed candles stay and the forming one is recomputed with the clock.
      app.clock.advance(3_000);
      const later = await get<TChart>(url);
      app.clock.advance(-3_000);
      expect(later.body.data.candles.slice(0, -1)).toEqual(rows.body.data.candles.slice(0, -1));
      expect(later.body.data.candles.at(-1)!.time).toBe(rows.body.data.candles.at(-1)!.time);

      // A limit keeps the forming candle and the latest closed ones, in both layouts.
      const limited = await get<TChartColumns>(`${url}&limit=3&layout=columns`);
      expect(candlesOfColumns(limited.body.data.columns)).toEqual(rows.body.data.candles.slice(-3));
      const one = await get<TChart>(`${url}&limit=1`);
      expect(one.body.data.candles).toEqual(rows.body.data.candles.slice(-1));
      // A window that ends in the past has no forming candle.
      const past = await get<TChartColumns>(
        `${url.replace('from=', `to=${NOW_S - 300}&from=`)}&layout=columns`,
      );
      expect(candlesOfColumns(past.body.data.columns)).toEqual(rows.body.data.candles.slice(0, 6));
      expect((await get(`${url}&layout=csv`)).body.error).toBe('layout: layout must be rows or columns');
    });

    it('answers an unknown interval with a 400 listing the valid ones', async () => {
      const { status, body } = await get('/api/market/chart/SOL?interval=2H');
      expect(status).toBe(400);
      expect(body.error).toContain('1S, 1M, 5M, 15M, 1H, 4H, 12H, 1D');
    });

    it('answers from > to with a 400', async () => {
      const { status, body } = await get(
        `/api/market/chart/SOL?interval=1H&from=${NOW_S}&to=${NOW_S - 3600}`,
      );
      expect(status).toBe(400);
      expect(body.error).toBe('from: from must not be after to');
    });

    it('answers a range over 10,000 candles with a 400 and serves exactly 10,000', async () => {
      const tooWide = await get(`/api/market/chart/SOL?interval=1M&from=${NOW_S - 20_000 * 60}`);
      expect(tooWide.status).toBe(400);
      expect(tooWide.body.code).toBe('MARKET__RANGE_TOO_LARGE');
      const from = NOW_S - (MAX_CHART_CANDLES - 1);
      const widest = await get<{ candles: TCandle[] }>(`/api/market/chart/SOL?interval=1S&from=${from}`);
      expect(widest.status).toBe(200);
      expect(widest.body.data.candles).toHaveLength(MAX_CHART_CANDLES);
    });

    it('accepts ISO dates and unix milliseconds, refuses nonsense', async () => {
      const iso = await get<{ from: number }>('/api/market/chart/SOL?interval=1H&from=2026-01-15T00:00:00Z');
      expect(iso.body.data.from).toBe(Date.parse('2026-01-15T00:00:00Z') / 1000);
      const ms = await get<{ from: number }>(
        `/api/market/chart/SOL?interval=1H&from=${Date.parse('2026-01-15T00:00:00Z')}`,
      );
      expect(ms.body.data.from).toBe(iso.body.data.from);
      expect((await get('/api/market/chart/SOL?from=yesterday')).status).toBe(400);
    });

    it('answers an unknown symbol with a 404 and an unknown quote with the spec message', async () => {
      expect((await get('/api/market/chart/NOPE')).status).toBe(404);
      const pair = await get('/api/market/chart/SOL-NOPE');
      expect(pair.status).toBe(404);
      expect(pair.body.error).toBe('Trading pair SOL/NOPE is not available');
    });
  });

  describe('GET /api/chart/historical/{symbol}', () => {
    it('answers a one-day line of five-minute closes by default', async () => {
      const { status, body } = await get<{
        points: Array<{ time: number; value: number }>;
        interval: string;
      }>('/api/chart/historical/ETH?timeframe=1d&format=line');
      expect(status).toBe(200);
      ZHistoricalChartSchema.parse(body.data);
      expect(body.data.interval).toBe('5M');
      expect(body.data.points.length).toBe(289);
      expect(body.data.points.every((point) => isPrice(point.value))).toBe(true);
    });

    it('answers candles for format=ohlc and refuses unknown timeframes', async () => {
      const { body } = await get<{ candles: TCandle[] }>(
        '/api/chart/historical/SOL?timeframe=7d&format=ohlc',
      );
      expect(body.data.candles.length).toBe(169);
      expect((await get('/api/chart/historical/SOL?timeframe=2w')).status).toBe(400);
      expect((await get('/api/chart/historical/SOL?format=bars')).status).toBe(400);
    });
  });

  describe('GET /api/trading/pair/{id}', () => {
    it('prices a pair written as symbols, in one or two path segments', async () => {
      const encoded = await get<Record<string, unknown>>('/api/trading/pair/SOL%2FUSDC');
      expect(encoded.status).toBe(200);
      ZPairPriceSchema.parse(encoded.body.data);
      const split = await get<Record<string, unknown>>('/api/trading/pair/SOL/USDC');
      expect(split.body.data.price).toBe(encoded.body.data.price);
      const data = encoded.body.data as {
        price: number;
        base_price_usd: number;
        quote_price_usd: number;
        change_24h: number;
      };
      // price = base / quote, 10 significant digits, computed in decimals; the number's text is that decimal
      expect(String(data.price)).toBe(
        new Dec(data.base_price_usd)
          .div(data.quote_price_usd)
          .toSignificantDigits(10, Dec.ROUND_HALF_UP)
          .toString(),
      );
      expect(isTwoDecimals(data.change_24h)).toBe(true);
    });

    it('prices a pair written as base-mint/quote-mint', async () => {
      const { status, body } = await get<{ base: string; quote: string; price: number }>(
        `/api/trading/pair/${encodeURIComponent(`${WRAPPED_SOL_MINT}/${USDC_MINT}`)}`,
      );
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ base: 'SOL', quote: 'USDC' });
      expect(body.data.price).toBeGreaterThan(0);
    });

    it('answers an unknown pair with a 404 and a malformed one with a 400', async () => {
      expect((await get('/api/trading/pair/SOL%2FNOPE')).status).toBe(404);
      expect((await get('/api/trading/pair/ZZZ%2FUSDC')).status).toBe(404);
      const malformed = await get('/api/trading/pair/SOL%2F%2FUSDC');
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('MARKET__INVALID_PAIR');
    });
  });

  describe('GET /api/trading/dexscreener and /api/trading/solscan', () => {
    it('finds BONK-like tokens for "bo", sorted by market cap, with the spec fields', async () => {
      const { status, body } = await get<Array<Record<string, unknown>>>('/api/trading/dexscreener?query=bo');
      expect(status).toBe(200);
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.length).toBeLessThanOrEqual(20);
      expect(body.data.map((result) => result.symbol)).toContain('BONK');
      for (const result of body.data) {
        ZTokenSearchResultSchema.parse(result);
        expect(result.current_price).toBe(result.price);
        expect(result.price).toBeGreaterThan(0);
        expect(isTwoDecimals(result.market_cap) && isTwoDecimals(result.price_change_24h)).toBe(true);
        expect(result.chain_id).toBe('solana');
      }
      const caps = body.data.map((result) => new Dec(result.market_cap as number));
      for (let index = 1; index < caps.length; index += 1)
        expect(caps[index - 1]!.gte(caps[index]!)).toBe(true);
    });

    it('honours limit and defaults to 15 on the fallback source', async () => {
      expect((await get<unknown[]>('/api/trading/dexscreener?query=so&limit=2')).body.data).toHaveLength(2);
      const fallback = await get<unknown[]>('/api/trading/solscan?query=an');
      expect(fallback.body.data.length).toBeLessThanOrEqual(15);
      expect(fallback.body.data.length).toBeGreaterThan(0);
    });

    it('finds a token by its mint on the fallback source', async () => {
      const { body } = await get<Array<{ symbol: string }>>(
        `/api/trading/solscan?query=${BONK_MINT.slice(0, 8)}`,
      );
      expect(body.data.map((result) => result.symbol)).toContain('BONK');
    });

    it('answers an empty, blank or one-character query with empty data', async () => {
      for (const query of ['', '%20%20', 'b', '%20b%20']) {
        const { status, body } = await get(`/api/trading/dexscreener?query=${query}`);
        expect(status).toBe(200);
        expect(body).toEqual({ success: true, data: [] });
      }
      expect((await get('/api/trading/dexscreener')).body.data).toEqual([]);
    });

    it('answers a query nobody matches with empty data', async () => {
      expect((await get('/api/trading/dexscreener?query=zzzzqqq')).body).toEqual({ success: true, data: [] });
    });

    it('refuses a 10 kB query and out-of-range limits with a 400', async () => {
      expect((await get(`/api/trading/dexscreener?query=${'a'.repeat(10_240)}`)).status).toBe(400);
      for (const limit of ['-1', '0', '1000000000', '2.5', 'ten']) {
        const { status, body } = await get(`/api/trading/dexscreener?query=sol&limit=${limit}`);
        expect(status, limit).toBe(400);
        expect(body.error).toMatch(/^limit: /);
      }
    });
  });

  describe('GET /api/trading/dexscreener/pools/{address}', () => {
    it('lists the pools of a token mint, and a single pool by its address', async () => {
      const { status, body } = await get<Array<Record<string, unknown>>>(
        `/api/trading/dexscreener/pools/${BONK_MINT}`,
      );
      expect(status).toBe(200);
      expect(body.data.length).toBeGreaterThanOrEqual(1);
      for (const pool of body.data) {
        ZPoolSchema.parse(pool);
        expect(isPrice(pool.price_native) && isTwoDecimals(pool.fdv)).toBe(true);
      }
      const address = body.data[0]!.pair_address as string;
      const single = await get<Array<{ pair_address: string }>>(`/api/trading/dexscreener/pools/${address}`);
      expect(single.body.data.map((pool) => pool.pair_address)).toEqual([address]);
    });

    it('answers an unknown well-formed address with empty data and a malformed one with a 400', async () => {
      expect(
        (await get('/api/trading/dexscreener/pools/11111111111111111111111111111111')).body.data,
      ).toEqual([]);
      const malformed = await get('/api/trading/dexscreener/pools/not-a-mint');
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toContain('Solana address');
    });
  });

  describe('GET /api/trending and /api/trending/enhanced', () => {
    it('answers trending tokens with the spec fields, score 0 first', async () => {
      const { status, body } = await get<Array<Record<string, unknown>>>('/api/trending');
      expect(status).toBe(200);
      expect(body.data.length).toBeGreaterThan(5);
      for (const token of body.data) ZTrendingTokenSchema.parse(token);
      expect(body.data.map((token) => token.score)).toEqual(body.data.map((_, index) => index));
      expect(body.data[0]).toHaveProperty('thumb', expect.stringMatching(/^data:image\/svg\+xml,/));
      expect(body.data.some((token) => token.symbol === 'USDC')).toBe(false);
    });

    it('adds pool facts on /enhanced', async () => {
      const { body } = await get<Array<Record<string, unknown>>>('/api/trending/enhanced');
      for (const token of body.data) ZEnhancedTrendingTokenSchema.parse(token);
      expect(body.data[0]).toMatchObject({
        chain_id: 'solana',
        dex_id: expect.any(String),
        price: expect.any(Number),
        market_cap: expect.any(Number),
        total_volume: expect.any(Number),
        liquidity_usd: expect.any(Number),
        price_change_24h: expect.any(Number),
      });
    });
  });

  describe('GET /api/holder-analysis/{token}', () => {
    it('answers 10 holders by default, largest first, with the spec fields', async () => {
      const { status, body } = await get<{ holders: Array<Record<string, unknown>> }>(
        '/api/holder-analysis/BONK',
      );
      expect(status).toBe(200);
      ZHolderAnalysisSchema.parse(body.data);
      expect(body.data.holders).toHaveLength(10);
      for (const holder of body.data.holders) {
        expect(isRoundedNumber(holder.owned_percentage, { decimals: 4 })).toBe(true);
        expect(isRoundedNumber(holder.sol_balance, { decimals: 4 })).toBe(true);
        expect(isRoundedNumber(holder.balance)).toBe(true);
      }
      const shares = body.data.holders.map((holder) => holder.owned_percentage as number);
      expect(shares).toEqual([...shares].sort((a, b) => b - a));
      expect(body.data.holders[0]).toMatchObject({ name: 'Raydium pool' });
    });

    it.each(['smart', 'kol', 'remarks', 'tracking'])('filters holder_type=%s', async (holderType) => {
      const { status, body } = await get<{ holders: Array<{ tags: string[] }> }>(
        `/api/holder-analysis/${BONK_MINT}?holder_type=${holderType}&limit=5`,
      );
      expect(status).toBe(200);
      expect(body.data.holders.length).toBeGreaterThan(0);
      for (const holder of body.data.holders) expect(holder.tags).toContain(holderType);
    });

    it('is deterministic per token', async () => {
      const first = await get('/api/holder-analysis/SOL?limit=20');
      const second = await get('/api/holder-analysis/SOL?limit=20');
      expect(second.body).toEqual(first.body);
    });

    it('answers stats of the top 100', async () => {
      const { status, body } = await get<Record<string, number>>('/api/holder-analysis/BONK/stats');
      expect(status).toBe(200);
      ZHolderStatsSchema.parse(body.data);
      expect(body.data.top100_owned).toBeGreaterThan(0);
      expect(body.data.top100_owned).toBeLessThanOrEqual(100);
      expect(isTwoDecimals(body.data.top100_owned) && isTwoDecimals(body.data.top100_avg_sold)).toBe(true);
      expect(isPrice(body.data.top100_avg_cost)).toBe(true);
    });

    it('refuses unknown holder types and tokens', async () => {
      expect((await get('/api/holder-analysis/BONK?holder_type=whales')).status).toBe(400);
      expect((await get('/api/holder-analysis/NOPE')).status).toBe(404);
      expect((await get('/api/holder-analysis/BONK?limit=-1')).status).toBe(400);
    });
  });

  describe('POST /api/tokens/decimals', () => {
    const post = (payload: Record<string, unknown>) =>
      call<Record<string, unknown>>(app, { method: 'POST', url: '/api/tokens/decimals', payload });

    it('answers the decimals of a known symbol or mint', async () => {
      expect((await post({ symbol: 'bonk' })).body.data).toMatchObject({ decimals: 5, source: 'known' });
      expect((await post({ mint: WRAPPED_SOL_MINT })).body.data).toMatchObject({
        symbol: 'SOL',
        decimals: 9,
      });
      expect((await post({ symbol: 'USDC', mint: USDC_MINT })).body.data).toMatchObject({ decimals: 6 });
    });

    it('falls back to the spec table for unknown tokens (USD 6, others 6)', async () => {
      expect((await post({ symbol: 'USD' })).body.data).toMatchObject({ decimals: 6, source: 'fallback' });
      expect((await post({ symbol: 'NEWCOIN' })).body.data).toMatchObject({
        decimals: 6,
        source: 'fallback',
      });
      expect((await post({ mint: '11111111111111111111111111111111' })).body.data).toMatchObject({
        decimals: 6,
      });
    });

    it('refuses an empty body and a malformed mint with a 400', async () => {
      expect((await post({})).status).toBe(400);
      const bad = await post({ mint: '0xdeadbeef' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('mint');
    });
  });

  it('keeps history to its window (a year of hours)', async () => {
    const { body } = await get<{ candles: TCandle[] }>(
      `/api/market/chart/SOL?interval=1H&from=${NOW_S - 400 * 86_400}`,
    );
    expect(body.data.candles).toHaveLength(365 * 24 + 1);
    expect(body.data.candles[0]!.time).toBe(Math.floor(NOW_S / 3600) * 3600 - 365 * 24 * 3600);
  });

  it('never answers a 500 to odd paths and parameters', async () => {
    const urls = [
      `/api/market/data/${'A'.repeat(64)}`,
      `/api/market/data/${'A'.repeat(500)}`,
      '/api/market/data/%00',
      '/api/market/data/%F0%9F%9A%80',
      '/api/market/chart/SOL?interval=',
      '/api/market/chart/SOL?from=-5',
      '/api/market/chart/SOL?limit=0',
      `/api/market/chart/SOL?to=${'9'.repeat(30)}`,
      '/api/trading/pair/%2F',
      '/api/trading/pair/-',
      `/api/trading/pair/${'x'.repeat(300)}`,
      '/api/trading/dexscreener?query=ab&query=cd',
      '/api/trading/dexscreener?limit=1e309',
      '/api/holder-analysis/%20',
      '/api/chart/historical/SOL?timeframe=%00',
    ];
    for (const url of urls) {
      const { status } = await get(url);
      expect(status, url).toBeGreaterThanOrEqual(400);
      expect(status, url).toBeLessThan(500);
    }
  });
});
