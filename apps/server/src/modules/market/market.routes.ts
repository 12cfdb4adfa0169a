import { z } from 'zod';
import {
  success,
  ZChartQuerySchema,
  ZChartColumnsSchema,
  ZChartSchema,
  ZDashboardCoinsSchema,
  ZDexScreenerSearchQuerySchema,
  ZEnhancedTrendingTokenSchema,
  ZHistoricalChartQuerySchema,
  ZHistoricalChartSchema,
  ZMarketHistoryQuerySchema,
  ZMarketHistorySchema,
  ZPairPriceSchema,
  ZPoolSchema,
  ZPoolsParamsSchema,
  ZSolscanSearchQuerySchema,
  ZTokenDecimalsRequestSchema,
  ZTokenDecimalsSchema,
  ZTokenMarketDataSchema,
  ZTokenPathParamsSchema,
  ZTokenSearchResultSchema,
  ZTrendingTokenSchema,
} from '@solterm/contracts';
import { createPerSecondAnswer, sendHotAnswer, type HotAnswers } from '../../lib/hot-answers';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import type { MarketService } from './market.service';
import { createChartBodies } from './chart-bodies';

const ZPairParamsSchema = z.object({
  id: z
    .string()
    .trim()
    .min(1, { message: 'pair is required' })
    .max(100, { message: 'pair must be at most 100 characters' }),
});

const ZPairPartsParamsSchema = z.object({
  base: z.string().trim().min(1).max(64, { message: 'base must be at most 64 characters' }),
  quote: z.string().trim().min(1).max(64, { message: 'quote must be at most 64 characters' }),
});

const ZChartParamsSchema = z.object({
  symbol: z
    .string()
    .trim()
    .min(1, { message: 'symbol is required' })
    .max(100, { message: 'symbol must be at most 100 characters' }),
});

/**
 * Market routes (spec part 1 §7 and part 2 §7), all public and under /api. Every response is the
 * `{ success, data }` envelope; prices, USD values and percentages are JSON numbers, computed and
 * rounded in decimal arithmetic before they become numbers. Inputs are validated by the contracts'
 * zod schemas (400 with a clear message); unknown tokens are 404s.
 */
export function registerMarketRoutes(app: ZodApp, deps: MarketRoutesDeps): void {
  registerPriceRoutes(app, deps);
  registerPairAndSearchRoutes(app, deps);
  registerTrendingAndTokenRoutes(app, deps);
}

interface MarketRoutesDeps {
  market: MarketService;
  now: () => Date;
  hot: HotAnswers;
}

const tags = ['market'];

/** Token prices, market data and charts. */
function registerPriceRoutes(app: ZodApp, deps: MarketRoutesDeps): void {
  const { market } = deps;
  const dashboardCoins = createPerSecondAnswer(deps.hot, ZDashboardCoinsSchema, deps.now, () =>
    market.getDashboardCoins(),
  );
  // The hottest route (every open dashboard polls it): encoded once per second, and answered before
  // Fastify routes the request while that second's bytes are ready.
  deps.hot.route('/api/market/dashboard-coins', dashboardCoins.current);

  app.get('/api/market/dashboard-coins', {
    schema: {
      tags,
      summary: 'BTC, ETH and SOL prices with 24 h change, keyed by lower-case symbol',
      response: { 200: success(ZDashboardCoinsSchema) },
    },
    // The first request of each second, and any with a query string: the same bytes and headers.
    handler: async (request, reply) => sendHotAnswer(request, reply, await dashboardCoins.answer()),
  });

  app.get('/api/market/data', {
    schema: {
      tags,
      summary: 'Market data of every listed token, largest market cap first',
      response: { 200: success(z.array(ZTokenMarketDataSchema)) },
    },
    handler: async () => ok(await market.listMarkets()),
  });

  app.get('/api/market/data/:symbol', {
    schema: {
      tags,
      summary:
        'Market data of one token by symbol, name or mint (a truncated symbol is retried with its full name)',
      params: ZTokenPathParamsSchema,
      response: { 200: success(ZTokenMarketDataSchema) },
    },
    handler: async (request) => ok(await market.getMarketData(request.params.symbol)),
  });

  app.get('/api/market/data/:symbol/history', {
    schema: {
      tags,
      summary: 'Hourly price history of a token (limit default 100, at most 1000)',
      params: ZTokenPathParamsSchema,
      querystring: ZMarketHistoryQuerySchema,
      response: { 200: success(ZMarketHistorySchema) },
    },
    handler: async (request) => ok(await market.getHistory(request.params.symbol, request.query.limit)),
  });

  const chartBody = createChartBodies();
  app.get('/api/market/chart/:symbol', {
    schema: {
      tags,
      summary:
        'OHLCV candles of a token in USD or of a pair (SOL-USDC, SOL%2FUSDC); interval 1S 1M 5M 15M 1H 4H 12H 1D (or 1S 1 5 15 60 240 720 1D); layout=columns answers one array per field',
      params: ZChartParamsSchema,
      querystring: ZChartQuerySchema,
      response: { 200: success(z.union([ZChartSchema, ZChartColumnsSchema])) },
    },
    // Up to 10,000 candles (a year of hours is ~1 MB of JSON as rows): the closed candles' bytes are
    // kept per window (chart-bodies.ts) and only the forming candle is serialised per request.
    handler: async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(
          chartBody(
            await market.getChartParts(request.params.symbol, request.query),
            request.query.layout,
          ) as never,
        ),
  });

  app.get('/api/chart/historical/:symbol', {
    schema: {
      tags,
      summary: 'A historical chart over a span (timeframe 1h 4h 1d 7d 30d 90d 1y) as a line or as candles',
      params: ZTokenPathParamsSchema,
      querystring: ZHistoricalChartQuerySchema,
      response: { 200: success(ZHistoricalChartSchema) },
    },
    handler: async (request) =>
      ok(
        await market.getHistoricalChart(request.params.symbol, request.query.timeframe, request.query.format),
      ),
  });
}

/** Pair prices, token search and pools. */
function registerPairAndSearchRoutes(app: ZodApp, deps: MarketRoutesDeps): void {
  const { market } = deps;

  app.get('/api/trading/pair/:id', {
    schema: {
      tags,
      summary: 'Price of a pair written as symbols (SOL%2FUSDC, SOL-USDC) or as base-mint/quote-mint',
      params: ZPairParamsSchema,
      response: { 200: success(ZPairPriceSchema) },
    },
    handler: async (request) => ok(await market.getPairPrice(request.params.id)),
  });

  app.get('/api/trading/pair/:base/:quote', {
    schema: {
      tags,
      summary: 'Price of a pair given as two path segments (/trading/pair/SOL/USDC)',
      params: ZPairPartsParamsSchema,
      response: { 200: success(ZPairPriceSchema) },
    },
    handler: async (request) =>
      ok(await market.getPairPrice(`${request.params.base}/${request.params.quote}`)),
  });

  app.get('/api/trading/dexscreener', {
    schema: {
      tags,
      summary: 'Token search, primary source (limit default 20); under 2 characters gives empty data',
      querystring: ZDexScreenerSearchQuerySchema,
      response: { 200: success(z.array(ZTokenSearchResultSchema)) },
    },
    handler: async (request) => ok(await market.search(request.query.query, request.query.limit, 'primary')),
  });

  app.get('/api/trading/solscan', {
    schema: {
      tags,
      summary: 'Token search, fallback source (limit default 15)',
      querystring: ZSolscanSearchQuerySchema,
      response: { 200: success(z.array(ZTokenSearchResultSchema)) },
    },
    handler: async (request) => ok(await market.search(request.query.query, request.query.limit, 'fallback')),
  });

  app.get('/api/trading/dexscreener/pools/:address', {
    schema: {
      tags,
      summary: 'Pools of a token mint, or the pool at a pool address',
      params: ZPoolsParamsSchema,
      response: { 200: success(z.array(ZPoolSchema)) },
    },
    handler: async (request) => ok(await market.getPools(request.params.address)),
  });
}

/** Trending tokens and token decimals. */
function registerTrendingAndTokenRoutes(app: ZodApp, deps: MarketRoutesDeps): void {
  const { market } = deps;

  app.get('/api/trending', {
    schema: {
      tags,
      summary: 'Trending tokens, hottest first',
      response: { 200: success(z.array(ZTrendingTokenSchema)) },
    },
    handler: async () => ok(await market.getTrending()),
  });

  app.get('/api/trending/enhanced', {
    schema: {
      tags,
      summary: 'Trending tokens with pool facts (liquidity, main pair, DEX)',
      response: { 200: success(z.array(ZEnhancedTrendingTokenSchema)) },
    },
    handler: async () => ok(await market.getEnhancedTrending()),
  });

  app.post('/api/tokens/decimals', {
    schema: {
      tags,
      summary: 'Decimals of a token by symbol and/or mint, with the spec fallback table',
      body: ZTokenDecimalsRequestSchema,
      response: { 200: success(ZTokenDecimalsSchema) },
    },
    handler: async (request) => ok(await market.getTokenDecimals(request.body)),
  });
}
