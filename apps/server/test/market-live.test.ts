import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ZChartSchema,
  ZEnhancedTrendingTokenSchema,
  ZPoolSchema,
  ZTokenMarketDataSchema,
  ZTokenSearchResultSchema,
  ZTrendingTokenSchema,
  type TCandle,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { call, createClock, createTestApp, type TestApp } from './helpers/test-app';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/market');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const BONK_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const PUMP_MINT = 'A8C3xuqscfmyLrte3VmTqrAq8kgMASius9AFNANwpump';

type Behaviour = 'ok' | 'slow' | 'rate-limited' | 'broken' | 'garbage';

/**
 * A local stand-in for CoinGecko, DexScreener and Jupiter: serves recorded response shapes from
 * test/fixtures/market and can be told to answer slowly, with 429, with 500 or with non-JSON.
 */
function startFakeProviders() {
  const requests: Array<{ path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders }> = [];
  let behaviour: Behaviour = 'ok';
  const routes: Array<[RegExp, (query: URLSearchParams) => string | undefined]> = [
    [/^\/coingecko\/simple\/price$/, () => fixture('coingecko/simple-price.json')],
    [/^\/coingecko\/coins\/markets$/, () => fixture('coingecko/coins-markets.json')],
    [/^\/coingecko\/search\/trending$/, () => fixture('coingecko/search-trending.json')],
    [/^\/coingecko\/coins\/solana\/market_chart$/, () => fixture('coingecko/market-chart-solana.json')],
    [
      /^\/dexscreener\/latest\/dex\/search$/,
      (query) =>
        query.get('q')?.toLowerCase().includes('bon')
          ? fixture('dexscreener/search.json')
          : '{"schemaVersion":"1.0.0","pairs":[]}',
    ],
    [
      new RegExp(`^/dexscreener/token-pairs/v1/solana/${BONK_MINT}$`),
      () => fixture('dexscreener/token-pairs-bonk.json'),
    ],
    [/^\/dexscreener\/token-pairs\/v1\/solana\/[^/]+$/, () => '[]'],
    [/^\/dexscreener\/latest\/dex\/pairs\/solana\/[^/]+$/, () => '{"schemaVersion":"1.0.0","pairs":null}'],
    [/^\/dexscreener\/token-boosts\/top\/v1$/, () => fixture('dexscreener/token-boosts-top.json')],
    [/^\/dexscreener\/tokens\/v1\/solana\/[^/]+$/, () => fixture('dexscreener/tokens-solana.json')],
    [/^\/jupiter\/price\/v3$/, () => fixture('jupiter/price-v3.json')],
    [
      /^\/jupiter\/tokens\/v2\/search$/,
      (query) =>
        fixture(
          query.get('query') === PUMP_MINT ? 'jupiter/tokens-search-mint.json' : 'jupiter/tokens-search.json',
        ),
    ],
  ];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    requests.push({ path: url.pathname, query: url.searchParams, headers: request.headers });
    const answer = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (behaviour === 'slow') {
      setTimeout(() => answer(200, '{}'), 2000).unref();
      return;
    }
    if (behaviour === 'rate-limited')
      return answer(429, '{"status":{"error_code":429,"error_message":"You\'ve exceeded the Rate Limit."}}');
    if (behaviour === 'broken') return answer(500, '{"error":"Internal Server Error"}');
    if (behaviour === 'garbage') return answer(200, '<html>maintenance</html>');
    for (const [pattern, handler] of routes) {
      if (pattern.test(url.pathname)) {
        const body = handler(url.searchParams);
        return body === undefined ? answer(404, '{"error":"not found"}') : answer(200, body);
      }
    }
    answer(404, '{"error":"not found"}');
  });
  return {
    requests,
    setBehaviour(next: Behaviour) {
      behaviour = next;
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('live market data against a fake provider server', () => {
  const fake = startFakeProviders();
  let app: TestApp;

  beforeAll(async () => {
    const base = await fake.start();
    app = await createTestApp({
      env: {
        MARKET_DATA: 'live',
        COINGECKO_API_URL: `${base}/coingecko`,
        COINGECKO_API_KEY: 'demo-key',
        DEXSCREENER_API_URL: `${base}/dexscreener`,
        JUPITER_PRICE_API_URL: `${base}/jupiter/price/v3`,
        JUPITER_TOKENS_API_URL: `${base}/jupiter/tokens/v2`,
        MARKET_PROVIDER_TIMEOUT_MS: '300',
        MARKET_TICK_MS: '3600000',
      },
      // The chart fixture ends at 2025-01-15T12:00:00Z.
      clock: createClock(new Date('2025-01-15T12:02:00Z')),
    });
  });

  beforeEach(() => fake.setBehaviour('ok'));

  afterAll(async () => {
    await app?.close();
    await fake.stop();
  });

  const get = <T>(url: string) => call<T>(app, { method: 'GET', url });

  it('answers the dashboard coins from CoinGecko simple price, with the API key header', async () => {
    const { status, body } = await get('/api/market/dashboard-coins');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      btc: { price: 97234.12, change_24h: 2.35 },
      eth: { price: 3287.55, change_24h: -1.2 },
      sol: { price: 187.42, change_24h: 4.88 },
    });
    const request = fake.requests.find((entry) => entry.path === '/coingecko/simple/price')!;
    expect(request.headers['x-cg-demo-api-key']).toBe('demo-key');
    expect(request.query.get('include_24hr_change')).toBe('true');
  });

  it('caches provider answers: repeated calls do not reach the provider again', async () => {
    await get('/api/market/dashboard-coins');
    const before = fake.requests.filter((entry) => entry.path === '/coingecko/simple/price').length;
    for (let index = 0; index < 5; index += 1) await get('/api/trading/pair/SOL%2FUSDC');
    expect(fake.requests.filter((entry) => entry.path === '/coingecko/simple/price').length).toBe(before);
  });

  it('lists markets from CoinGecko coin markets, mapped to universe mints', async () => {
    const { status, body } = await get<Array<Record<string, unknown>>>('/api/market/data');
    expect(status).toBe(200);
    for (const market of body.data) ZTokenMarketDataSchema.parse(market);
    const bonk = body.data.find((market) => market.symbol === 'BONK')!;
    expect(bonk).toMatchObject({
      address: BONK_MINT,
      decimals: 5,
      price: 0.00002134,
      change_24h: -6.43,
      market_cap: 1612345678,
      market_cap_rank: 58,
      source: 'coingecko',
    });
  });

  it('answers one token and prices a pair from the quotes', async () => {
    expect((await get<{ symbol: string }>('/api/market/data/SOLAN')).body.data.symbol).toBe('SOL');
    const { body } = await get<{ price: number; change_24h: number }>('/api/trading/pair/SOL%2FUSDC');
    // 187.42 / 0.999912 in decimals, 10 significant digits: the number's text is that decimal
    expect(String(body.data.price)).toBe(
      new Dec('187.42').div('0.999912').toSignificantDigits(10, Dec.ROUND_HALF_UP).toString(),
    );
  });

  it('prices a mint outside the universe through Jupiter', async () => {
    const { status, body } = await get<{ base: string; base_price_usd: number; price: number }>(
      `/api/trading/pair/${PUMP_MINT}-USD`,
    );
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ base: 'FWOG', base_price_usd: 0.0412345, price: 0.0412345 });
    const decimals = await call(app, {
      method: 'POST',
      url: '/api/tokens/decimals',
      payload: { mint: PUMP_MINT },
    });
    expect(decimals.body.data).toMatchObject({ symbol: 'FWOG', decimals: 6, source: 'known' });
  });

  it('searches DexScreener: one result per token, no blank symbols, largest market cap first', async () => {
    const { status, body } = await get<Array<Record<string, unknown>>>('/api/trading/dexscreener?query=bonk');
    expect(status).toBe(200);
    for (const result of body.data) ZTokenSearchResultSchema.parse(result);
    expect(body.data.map((result) => [result.symbol, result.chain_id])).toEqual([
      ['Bonk', 'solana'],
      ['BONK', 'ethereum'],
      ['BIF', 'solana'],
    ]);
    expect(body.data[0]).toMatchObject({
      id: BONK_MINT,
      address: BONK_MINT,
      current_price: 0.00002134,
      price: 0.00002134,
      market_cap: 1612345678,
      price_change_24h: -6.43,
      decimals: 5,
      source: 'dexscreener',
      pair_address: '3ne4mWqdYuNiYrYZC9TrA3FcfuFdErghH97vNPbjicr1',
      dex_id: 'raydium',
      liquidity_usd: 8123456.78,
      volume_24h: 18234567.12,
    });
  });

  it('searches Jupiter on the fallback source', async () => {
    const { body } = await get<Array<Record<string, unknown>>>('/api/trading/solscan?query=jup');
    expect(body.data.map((result) => result.symbol)).toEqual(['JLP', 'JUP']);
    expect(body.data[1]).toMatchObject({
      id: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
      decimals: 6,
      price: 0.57001,
      market_cap: 1804234567.1,
      price_change_24h: -3.21,
      volume_24h: 81111111,
      source: 'jupiter',
    });
  });

  it.each([
    ['slow', 'DexScreener did not answer within 0.3 s'],
    ['rate-limited', 'DexScreener rate limit reached. Please try again shortly.'],
    ['broken', 'DexScreener is unavailable (HTTP 500)'],
    ['garbage', 'DexScreener returned an invalid response'],
  ] as const)('maps a %s provider to a 502 whose error is only the reason', async (behaviour, message) => {
    // Clients show 'Search failed: ' + error themselves (spec part 1 §9), so the server does not prefix it.
    fake.setBehaviour(behaviour);
    const { status, body } = await get(`/api/trading/dexscreener?query=${behaviour}-query`);
    expect(status).toBe(502);
    expect(body).toMatchObject({ success: false, error: message, code: 'MARKET__SEARCH_FAILED' });
  });

  it('maps provider failures elsewhere to stable codes, never a 500', async () => {
    fake.setBehaviour('slow');
    const slow = await get('/api/trending');
    expect(slow.status).toBe(504);
    expect(slow.body.code).toBe('MARKET__PROVIDER_TIMEOUT');
    fake.setBehaviour('rate-limited');
    const limited = await get('/api/trending');
    expect(limited.status).toBe(503);
    expect(limited.body.code).toBe('MARKET__PROVIDER_RATE_LIMITED');
    fake.setBehaviour('ok');
    expect((await get('/api/trending')).status).toBe(200);
  });

  it('answers pools of a token from DexScreener token pairs', async () => {
    const { body } = await get<Array<Record<string, unknown>>>(`/api/trading/dexscreener/pools/${BONK_MINT}`);
    expect(body.data).toHaveLength(2);
    for (const pool of body.data) ZPoolSchema.parse(pool);
    expect(body.data[0]).toMatchObject({
      dex_id: 'raydium',
      labels: ['CLMM'],
      pair_created_at: '2023-12-08T05:12:25.000Z',
    });
    expect((await get('/api/trading/dexscreener/pools/11111111111111111111111111111111')).body.data).toEqual(
      [],
    );
  });

  it('answers trending from CoinGecko with the spec fields', async () => {
    const { body } = await get<Array<Record<string, unknown>>>('/api/trending');
    for (const token of body.data) ZTrendingTokenSchema.parse(token);
    expect(body.data[0]).toMatchObject({
      symbol: 'FARTCOIN',
      address: '9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump',
      market_cap: 887051234,
      total_volume: 412345678,
      price: 0.887123,
      price_change_24h: 11.53,
      market_cap_rank: 98,
      score: 0,
      holders: null,
    });
    expect(body.data[2]).toMatchObject({ symbol: 'SNC', price: 0.00001167, address: null });
  });

  it('answers enhanced trending from DexScreener boosts, Solana only, with pool facts', async () => {
    const { body } = await get<Array<Record<string, unknown>>>('/api/trending/enhanced');
    for (const token of body.data) ZEnhancedTrendingTokenSchema.parse(token);
    expect(body.data.map((token) => token.address)).toEqual([
      '9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump',
      '2qEHjDLDLbuBgRYvsxhc5D6uDWAivNFZGan56P1tpump',
    ]);
    expect(body.data[0]).toMatchObject({
      pair_address: 'Bzc9NZfMqkXR6fz1DBph7BDf9BroyEf6pnzESP7v5iiw',
      liquidity_usd: 41234567.8,
      dex_id: 'raydium',
      created_at: '2024-10-18T00:00:00.000Z',
    });
  });

  it('builds candles from CoinGecko market charts, and refuses 1S', async () => {
    const { status, body } = await get<{ candles: TCandle[] }>(
      `/api/market/chart/SOL?interval=1H&from=${Date.parse('2025-01-14T12:00:00Z') / 1000}`,
    );
    expect(status).toBe(200);
    ZChartSchema.parse(body.data);
    expect(body.data.candles).toHaveLength(25);
    for (const candle of body.data.candles) {
      expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
      expect(typeof candle.volume).toBe('number');
    }
    const seconds = await get('/api/market/chart/SOL?interval=1S');
    expect(seconds.status).toBe(400);
    expect(seconds.body.code).toBe('MARKET__INTERVAL_UNAVAILABLE');
  });

  it('keeps the search input rules: under 2 characters gives empty data without calling the provider', async () => {
    const before = fake.requests.length;
    expect((await get('/api/trading/dexscreener?query=b')).body).toEqual({ success: true, data: [] });
    expect(fake.requests.length).toBe(before);
  });
});
