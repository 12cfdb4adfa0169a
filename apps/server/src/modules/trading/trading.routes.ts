import type { preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  success,
  ZExecuteSignedTransactionRequestSchema,
  ZExecuteSignedTransactionResultSchema,
  ZOrderBookSchema,
  ZOrderIdParamsSchema,
  ZOrderRequestSchema,
  ZPendingTransactionSchema,
  ZPositionSchema,
  isTriggerOrderRequest,
  ZSpotOrderRequestSchema,
  ZSpotOrderSchema,
  ZSuggestionRequestSchema,
  ZSuggestionSchema,
  ZTradableQuerySchema,
  ZTradableSchema,
  ZTradeSchema,
  ZTradesHistoryQuerySchema,
  ZTradesHistorySchema,
  ZTradesQuerySchema,
  ZUnsignedTransactionSchema,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import { ZIdempotencyHeadersSchema } from '../relay/relay.service';
import type { LimitKeeper } from './limit-keeper';
import type { TradingService } from './trading.service';

export interface TradingRoutesDeps {
  trading: TradingService;
  keeper?: LimitKeeper;
  requireAuth: preHandlerAsyncHookHandler;
}

const ZSymbolParamsSchema = z.object({ symbol: z.string().min(1).max(140) });

/** Requests per client to GET /trading/tradable; the web asks once per results page and caches 60 s. */
export const TRADABLE_RATE_LIMIT = { max: 120, timeWindow: 60_000 };

const tags = ['trading'];
const security = [{ bearerAuth: [] }];

/** Spot trading (part 1 §7 and part 2 §7): orders, transactions, fills, positions and the order book. */
export function registerTradingRoutes(app: ZodApp, deps: TradingRoutesDeps): void {
  registerTransactionRoutes(app, deps);
  registerOrderRoutes(app, deps);
  registerPublicTradingRoutes(app, deps);
}

/** An order's transaction: suggestion, build, execute (idempotent), and the order it recorded. */
function registerTransactionRoutes(app: ZodApp, deps: TradingRoutesDeps): void {
  const { trading, requireAuth } = deps;

  app.post('/api/trading/suggestion', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Suggested side and the SOL/USDC (and pair) balances read from the chain',
      body: ZSuggestionRequestSchema,
      response: { 200: success(ZSuggestionSchema) },
    },
    handler: async (request) => ok(await trading.suggestion(authOf(request).user, request.body.symbol)),
  });

  app.post('/api/trading/get-unsigned-transaction', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Builds the order as a v0 transaction for the wallet to sign (≤ 1232 bytes)',
      description:
        'Market orders swap through the venue (the market maker has already signed its leg). Limit orders escrow the funds with the venue; the keeper fills them when the price crosses the limit.',
      body: ZOrderRequestSchema,
      response: { 200: success(ZUnsignedTransactionSchema) },
    },
    handler: async (request) => ok(await trading.buildOrder(authOf(request).user, request.body)),
  });

  app.post('/api/trading/execute-signed-transaction', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Verifies, simulates, sends and confirms a signed transaction the server built',
      description:
        'An Idempotency-Key header makes retries safe: the same key and body answer the first result; the same key with another body is refused with 409. When the node fails after the transaction was sent, the answer is 202 pending with its signature (follow it with GET /api/transactions/{signature}); it is settled from the chain, never sent twice.',
      headers: ZIdempotencyHeadersSchema,
      body: ZExecuteSignedTransactionRequestSchema,
      response: {
        200: success(ZExecuteSignedTransactionResultSchema),
        202: success(ZPendingTransactionSchema),
      },
    },
    handler: async (request, reply) => {
      const answer = await trading.execute(
        authOf(request).user,
        request.body.signed_transaction,
        request.headers['idempotency-key'],
      );
      return reply.code(answer.statusCode as 200).send(answer.body as never);
    },
  });

  app.post('/api/trading/spot/order', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary:
        'Places a take-profit, stop-loss or trailing-stop order (the escrow transaction to sign), or answers the order recorded for an executed transaction (idempotent on tx_hash)',
      description:
        "With order_type 'take_profit' | 'stop_loss' (trigger_price) or 'trailing_stop' (trail_percent, 0.1–50), side, amount, max_slippage_bps (default 100) and optional oco_with: answers the unsigned escrow transaction; the wallet signs it and it is executed through execute-signed-transaction like a limit order. The keeper fires it when the pair's market mid price reaches the trigger and executes it at the maker's price for the size within max_slippage_bps of the trigger, else keeps it open with a status_reason. With tx_hash: the order recorded for that transaction.",
      body: ZSpotOrderRequestSchema,
      response: { 200: success(z.union([ZSpotOrderSchema, ZUnsignedTransactionSchema])) },
    },
    handler: async (request) => {
      const body = request.body;
      if (isTriggerOrderRequest(body)) {
        if (!deps.keeper)
          throw new AppError(
            'TRADING__VENUE_UNAVAILABLE',
            'Trigger orders need the local market maker venue',
          );
        return ok(await trading.placeTriggerOrder(authOf(request).user, body));
      }
      return ok(await trading.recordSpotOrder(authOf(request).user, body));
    },
  });
}

/** The user's orders (and cancelling a limit order), positions and fills. */
function registerOrderRoutes(app: ZodApp, deps: TradingRoutesDeps): void {
  const { trading, requireAuth } = deps;

  app.get('/api/trading/orders', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "The user's spot orders, newest first",
      response: { 200: success(z.array(ZSpotOrderSchema)) },
    },
    handler: async (request) => ok(await trading.listOrders(authOf(request).user)),
  });

  app.post('/api/trading/orders/:id/cancel', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Cancels a pending limit order; the escrowed funds return to the wallet on chain',
      params: ZOrderIdParamsSchema,
      response: { 200: success(ZSpotOrderSchema) },
    },
    handler: async (request) => {
      if (!deps.keeper) throw new AppError('TRADING__ORDER_NOT_CANCELLABLE');
      return ok(await deps.keeper.cancel(authOf(request).user.id, request.params.id));
    },
  });

  app.get('/api/trading/positions', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "Positions derived from the user's fills (average cost), marked at the market",
      response: { 200: success(z.array(ZPositionSchema)) },
    },
    handler: async (request) => ok(await trading.positions(authOf(request).user)),
  });

  app.get('/api/trading/trades', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "The user's fills, newest first, with execution receipts",
      querystring: ZTradesQuerySchema,
      response: { 200: success(z.array(ZTradeSchema)) },
    },
    handler: async (request) => ok(await trading.listTrades(authOf(request).user, request.query.limit)),
  });

  app.get('/api/trading/trades/history', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "One page of the user's fills with the total count",
      querystring: ZTradesHistoryQuerySchema,
      response: { 200: success(ZTradesHistorySchema) },
    },
    handler: async (request) =>
      ok(await trading.tradeHistory(authOf(request).user, request.query.limit, request.query.offset)),
  });
}

/** Public: which pairs can be traded here, and the market maker's order book. */
function registerPublicTradingRoutes(app: ZodApp, deps: TradingRoutesDeps): void {
  const { trading } = deps;

  app.get('/api/trading/tradable', {
    // Public, and each unknown pair costs chain and market-data lookups (up to 50 a request): bounded per client.
    config: { rateLimit: TRADABLE_RATE_LIMIT },
    schema: {
      tags,
      summary: 'Whether each pair can be traded here (tokens on the configured chain), and why not',
      querystring: ZTradableQuerySchema,
      response: { 200: success(ZTradableSchema) },
    },
    handler: async (request) => ok(await trading.tradability(request.query.pairs)),
  });

  app.get('/api/trading/orderbook/:symbol', {
    schema: {
      tags,
      summary: "The market maker's ladder for a pair (buys descending, sells ascending)",
      params: ZSymbolParamsSchema,
      response: { 200: success(ZOrderBookSchema) },
    },
    handler: async (request) => ok(await trading.orderBook(request.params.symbol)),
  });
}
