import type { preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  success,
  ZFuturesAccountSchema,
  ZFuturesClosePositionResultSchema,
  ZFuturesCollateralRequestSchema,
  ZFuturesDepositSchema,
  ZFuturesLeverageRequestSchema,
  ZFuturesLeverageResultSchema,
  ZFuturesFundingSchema,
  ZFuturesMarketSchema,
  ZFuturesOpenInterestSchema,
  ZFuturesOrderBookSchema,
  ZFuturesOrderIdParamsSchema,
  ZFuturesOrderRequestSchema,
  ZFuturesOrderResultSchema,
  ZFuturesOrderSchema,
  ZFuturesPairIdParamsSchema,
  ZFuturesPairSchema,
  ZFuturesPositionSchema,
  ZFuturesCloseRequestSchema,
  ZFuturesSavedTradeResultSchema,
  ZFuturesSavedTradeSchema,
  ZFuturesSymbolParamsSchema,
  ZFuturesTpslRequestSchema,
  ZFuturesTradeSchema,
  ZFuturesVolumeSchema,
  ZFuturesWithdrawSchema,
  ZPendingTransactionSchema,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import { ZIdempotencyHeadersSchema } from '../relay/relay.service';
import type { FuturesService } from './futures.service';
import type { PerpVenue } from './perp-venue';

/** Deposits and withdrawals build or send transactions. */
export const FUTURES_FUNDS_RATE_LIMIT = { max: 30, timeWindow: 60_000 };

const ZListQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(50, { message: 'limit must be at most 50' })
    .default(50),
});

export interface FuturesRoutesDeps {
  venue: PerpVenue;
  requireAuth: preHandlerAsyncHookHandler;
  /** Orders, closes and cancels each client may send per window. */
  orderRateLimit: { max: number; windowMs: number };
}

/** Perpetual futures (part 2 §7 Futures). Market data is public; accounts and trading need a session. */
export function registerFuturesRoutes(app: ZodApp, deps: FuturesRoutesDeps): void {
  const { venue, requireAuth } = deps;
  const trading = (): FuturesService => {
    if (!venue.trading) throw new AppError('FUTURES__VENUE_READ_ONLY');
    return venue.trading;
  };
  registerMarketRoutes(app, venue);
  registerAccountRoutes(app, requireAuth, trading);
  registerCollateralRoutes(app, requireAuth, trading);
  registerOrderRoutes(app, requireAuth, trading, deps.orderRateLimit);
}

const tags = ['futures'];
const security = [{ bearerAuth: [] }];
/** The local venue's trading service, or 501 FUTURES__VENUE_READ_ONLY (Drift). */
type Trading = () => FuturesService;

/** Public market data: pairs, market, book, funding, open interest, volume. */
function registerMarketRoutes(app: ZodApp, venue: PerpVenue): void {
  app.get('/api/futures/pairs', {
    schema: {
      tags,
      summary: 'The perpetual markets',
      response: { 200: success(z.array(ZFuturesPairSchema)) },
    },
    handler: async () => ok(await venue.pairs()),
  });
  app.get('/api/futures/pairs/:id', {
    schema: {
      tags,
      summary: 'One perpetual market (SOL-PERP, SOL or SOL/USDC)',
      params: ZFuturesPairIdParamsSchema,
      response: { 200: success(ZFuturesPairSchema) },
    },
    handler: async (request) => ok(await venue.pair(request.params.id)),
  });
  app.get('/api/futures/market/:s', {
    schema: {
      tags,
      summary: 'Oracle, mark and last prices, funding, open interest, 24 h volume and the book',
      params: ZFuturesSymbolParamsSchema,
      response: { 200: success(ZFuturesMarketSchema) },
    },
    handler: async (request) => ok(await venue.market(request.params.s)),
  });
  app.get('/api/futures/orderbook/:s', {
    schema: {
      tags,
      summary: 'The order book with its spread (also pushed on the futures-book:{symbol} channel)',
      params: ZFuturesSymbolParamsSchema,
      response: { 200: success(ZFuturesOrderBookSchema) },
    },
    handler: async (request) => ok(await venue.book(request.params.s)),
  });
  app.get('/api/futures/funding/:s', {
    schema: {
      tags,
      summary: 'The last hourly funding rate, the predicted one and the last 24',
      params: ZFuturesSymbolParamsSchema,
      response: { 200: success(ZFuturesFundingSchema) },
    },
    handler: async (request) => ok(await venue.funding(request.params.s)),
  });
  app.get('/api/futures/open-interest/:s', {
    schema: {
      tags,
      summary: 'Open interest in the base token and in USD',
      params: ZFuturesSymbolParamsSchema,
      response: { 200: success(ZFuturesOpenInterestSchema) },
    },
    handler: async (request) => ok(await venue.openInterest(request.params.s)),
  });
  app.get('/api/futures/volume/:s', {
    schema: {
      tags,
      summary: 'Traded notional and trades over 24 h',
      params: ZFuturesSymbolParamsSchema,
      response: { 200: success(ZFuturesVolumeSchema) },
    },
    handler: async (request) => ok(await venue.volume(request.params.s)),
  });
}

/** The caller's account, orders, positions and trades. */
function registerAccountRoutes(app: ZodApp, requireAuth: preHandlerAsyncHookHandler, trading: Trading): void {
  app.get('/api/futures/account', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The caller’s futures account: collateral, equity, margins, free collateral',
      response: { 200: success(ZFuturesAccountSchema) },
    },
    handler: async (request) => ok(await trading().account(authOf(request).user)),
  });
  app.get('/api/futures/orders', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The caller’s futures orders, open first, newest first',
      querystring: ZListQuerySchema,
      response: { 200: success(z.array(ZFuturesOrderSchema)) },
    },
    handler: async (request) => ok(await trading().orders(authOf(request).user, request.query.limit)),
  });
  app.get('/api/futures/positions', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The caller’s open positions, marked to the oracle, with liquidation prices',
      response: { 200: success(z.array(ZFuturesPositionSchema)) },
    },
    handler: async (request) => ok(await trading().positions(authOf(request).user)),
  });
  app.get('/api/futures/trades', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The caller’s fills, newest first',
      querystring: ZListQuerySchema,
      response: { 200: success(z.array(ZFuturesTradeSchema)) },
    },
    handler: async (request) => ok(await trading().trades(authOf(request).user, request.query.limit)),
  });
}

/** Opening the account, deposits and withdrawals (they build or send transactions). */
function registerCollateralRoutes(
  app: ZodApp,
  requireAuth: preHandlerAsyncHookHandler,
  trading: Trading,
): void {
  const funds = { rateLimit: FUTURES_FUNDS_RATE_LIMIT };
  app.post('/api/futures/account/initialize', {
    preHandler: requireAuth,
    config: funds,
    schema: {
      tags,
      security,
      summary:
        'Opens the futures account with a first deposit (at least 1 USDC): the transfer your wallet signs',
      body: ZFuturesCollateralRequestSchema,
      response: { 200: success(ZFuturesDepositSchema) },
    },
    handler: async (request) => ok(await trading().initialize(authOf(request).user, request.body)),
  });
  app.post('/api/futures/collateral/deposit', {
    preHandler: requireAuth,
    config: funds,
    schema: {
      tags,
      security,
      summary: 'A USDC deposit (at least 0.01): the transfer your wallet signs',
      description:
        'Sign the returned transaction and send it to POST /api/trading/execute-signed-transaction; the collateral is credited when it lands on chain.',
      body: ZFuturesCollateralRequestSchema,
      response: { 200: success(ZFuturesDepositSchema) },
    },
    handler: async (request) => ok(await trading().deposit(authOf(request).user, request.body)),
  });
  app.post('/api/futures/collateral/withdraw', {
    preHandler: requireAuth,
    config: funds,
    schema: {
      tags,
      security,
      summary: 'Sends free collateral from the vault to your wallet (the only destination), on chain',
      description:
        'An Idempotency-Key header makes retries safe: the same key and body answer the first outcome and never pay twice. When the transfer was sent but its outcome is not known yet, the answer is 202 pending with its signature (follow it with GET /api/transactions/{signature}); a transfer that fails or expires is credited back.',
      headers: ZIdempotencyHeadersSchema,
      body: ZFuturesCollateralRequestSchema,
      response: { 200: success(ZFuturesWithdrawSchema), 202: success(ZPendingTransactionSchema) },
    },
    handler: async (request, reply) => {
      const answer = await trading().withdraw(
        authOf(request).user,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.code(answer.statusCode as 200).send(answer.body as never);
    },
  });
}

/** Orders, the leverage setting, cancels, closes and saved trades (rate-limited per client). */
function registerOrderRoutes(
  app: ZodApp,
  requireAuth: preHandlerAsyncHookHandler,
  trading: Trading,
  orderRateLimit: FuturesRoutesDeps['orderRateLimit'],
): void {
  const orders = { rateLimit: { max: orderRateLimit.max, timeWindow: orderRateLimit.windowMs } };
  app.post('/api/futures/order', {
    preHandler: requireAuth,
    config: orders,
    schema: {
      tags,
      security,
      summary:
        'Places a market, limit, stop market or take profit market order (amount in the base token) at your leverage setting for the market',
      description:
        'With `type` (stop_market or take_profit_market) and `trigger_price` the order waits, holding no margin, until the market’s oracle price reaches the trigger, then trades once as a market order (no further than 8 % from the oracle); a trigger the oracle has already reached is refused (400). `reduce_only` orders never grow or flip the position.',
      body: ZFuturesOrderRequestSchema,
      response: { 200: success(ZFuturesOrderResultSchema) },
    },
    handler: async (request) => ok(await trading().placeOrder(authOf(request).user, request.body)),
  });
  app.post('/api/futures/leverage', {
    preHandler: requireAuth,
    config: orders,
    schema: {
      tags,
      security,
      summary: 'Sets your leverage in one market (1 to its maximum); orders never change it',
      description:
        'The position and open orders of the market are margined at the new leverage. Refused (409) when they could not be: free collateral would go negative. An order whose leverage differs from this setting is refused while the market has a position or open orders.',
      body: ZFuturesLeverageRequestSchema,
      response: { 200: success(ZFuturesLeverageResultSchema) },
    },
    handler: async (request) => ok(await trading().setLeverage(authOf(request).user, request.body)),
  });
  app.post('/api/futures/orders/:id/cancel', {
    preHandler: requireAuth,
    config: orders,
    schema: {
      tags,
      security,
      summary: 'Cancels one of your open orders',
      params: ZFuturesOrderIdParamsSchema,
      response: { 200: success(ZFuturesOrderSchema) },
    },
    handler: async (request) => ok(await trading().cancelOrder(authOf(request).user, request.params.id)),
  });
  app.post('/api/futures/position/close', {
    preHandler: requireAuth,
    config: orders,
    schema: {
      tags,
      security,
      summary: 'Closes a whole position at the market',
      description:
        'position_id is the market symbol (SOL-PERP). exit_price is ignored: the close trades at the book, no further than 8 % from the oracle.',
      body: ZFuturesCloseRequestSchema,
      response: { 200: success(ZFuturesClosePositionResultSchema) },
    },
    handler: async (request) =>
      ok(await trading().closePosition(authOf(request).user, request.body.position_id)),
  });
  app.post('/api/futures/position/tpsl', {
    preHandler: requireAuth,
    config: orders,
    schema: {
      tags,
      security,
      summary: 'Attaches a take profit and/or stop loss to your whole position in a market',
      description:
        'Each is a reduce-only trigger order on the closing side, against the oracle price: a price sets or replaces that leg, null removes it, an absent one is kept. They follow the position: resized as it shrinks or grows, cancelled when it closes or flips; the one that fires cancels the other by closing the position. Refused (400) without a position, or with a price the oracle has already reached.',
      body: ZFuturesTpslRequestSchema,
      response: { 200: success(ZFuturesPositionSchema) },
    },
    handler: async (request) => ok(await trading().setTpsl(authOf(request).user, request.body)),
  });
  app.post('/api/futures/save-trade', {
    preHandler: requireAuth,
    config: orders,
    schema: {
      tags,
      security,
      summary: 'Saves a futures trade record (part 2 §3 futures saved trade)',
      body: ZFuturesSavedTradeSchema,
      response: { 200: success(ZFuturesSavedTradeResultSchema) },
    },
    handler: async (request) => ok(await trading().saveTrade(authOf(request).user, request.body)),
  });
}
