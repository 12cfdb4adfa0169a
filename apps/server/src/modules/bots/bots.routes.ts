import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  success,
  ZBacktestRequestSchema,
  ZBacktestResultSchema,
  ZBotCreateRequestSchema,
  ZBotIdParamsSchema,
  ZBotSchema,
  ZBotTestIdParamsSchema,
  ZBotTestRequestSchema,
  ZBotUpdateRequestSchema,
  ZBotWithStatusSchema,
  ZProductionStatusSchema,
} from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf, readBearerToken } from '../../plugins/authenticate';
import type { BacktestResultJson } from './backtest/backtest-job';
import { strategyCatalogue } from './bot-strategy';
import type { BotsService } from './bots.service';

/** Backtests cost CPU: each client may start this many a minute (tests and backtests together). */
export const BACKTEST_RATE_LIMIT = { max: 30, timeWindow: 60_000 };
/**
 * Each start or stop writes a run and builds a strategy: each session may do this many a minute
 * (counted per bearer token, so users behind one address do not share a budget; a request without
 * one is refused by the auth check anyway, and counted by its address).
 */
export const RUN_RATE_LIMIT = {
  max: 30,
  timeWindow: 60_000,
  keyGenerator: (request: FastifyRequest) => {
    const token = readBearerToken(request);
    return token ? `session:${createHash('sha256').update(token).digest('base64url')}` : request.ip;
  },
};

/**
 * A backtest's answer in the success envelope, from the result's JSON text as the worker thread made
 * and checked it (ZBacktestResultSchema): sent as it is, since parsing, checking and serialising
 * ~600 KB here would hold up every other request (the response schema stays for the docs).
 */
function sendResultJson(reply: FastifyReply, json: BacktestResultJson) {
  return reply.type('application/json; charset=utf-8').send(`{"success":true,"data":${json}}`);
}

export interface BotsRoutesDeps {
  bots: BotsService;
  requireAuth: preHandlerAsyncHookHandler;
}

/** Bot definitions and backtests (part 2 §7 "Bots"). A user sees and changes only their own bots. */
export function registerBotsRoutes(app: ZodApp, deps: BotsRoutesDeps): void {
  registerBotDefinitionRoutes(app, deps);
  registerBotRunRoutes(app, deps);
  registerBotBacktestRoutes(app, deps);
}

const tags = ['bots'];
const security = [{ bearerAuth: [] }];

/** The caller's bots: list, strategies, create, delete, edit. */
function registerBotDefinitionRoutes(app: ZodApp, deps: BotsRoutesDeps): void {
  const { bots, requireAuth } = deps;

  app.get('/api/bots', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "The caller's bots, newest first, with the list fields of part 2 §3",
      response: { 200: success(z.array(ZBotSchema)) },
    },
    handler: async (request) => ok(await bots.list(authOf(request).user.id)),
  });

  app.get('/api/bots/with-status', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "The caller's bots with their metrics nested under `performance`",
      response: { 200: success(z.array(ZBotWithStatusSchema)) },
    },
    handler: async (request) => ok(await bots.listWithStatus(authOf(request).user.id)),
  });

  app.get('/api/bots/strategies', {
    schema: {
      tags,
      summary: 'The built-in strategies: type, category, description and parameters with their ranges',
    },
    handler: async () => ok(strategyCatalogue()),
  });

  app.post('/api/bots', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Creates a bot (part 2 §3 create payload); it starts stopped, every metric zero',
      description:
        'Refused when its code does not load in its sandbox or lacks its entry point (400 BOTS__CODE_INVALID, the error and line in the message) or its pair is not traded (400 BOTS__PAIR_INVALID).',
      body: ZBotCreateRequestSchema,
      response: { 200: success(ZBotSchema) },
    },
    handler: async (request) => ok(await bots.create(authOf(request).user.id, request.body)),
  });

  app.delete('/api/bots/:id', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Deletes one of the caller’s bots (a running bot must be stopped first)',
      params: ZBotIdParamsSchema,
      response: { 200: success(z.object({ bot_id: z.string(), deleted: z.literal(true) })) },
    },
    handler: async (request) => {
      await bots.remove(authOf(request).user.id, request.params.id);
      return ok({ bot_id: request.params.id, deleted: true as const });
    },
  });

  app.patch('/api/bots/:id', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary:
        'Edits one of the caller’s bots (name, description, strategy_type, config: stopped bots only), or publishes it / takes it back',
      description:
        'Code and pair are checked as at create: the code loads in its sandbox and defines its entry point (BOTS__CODE_INVALID), the pair is traded (BOTS__PAIR_INVALID). A running bot answers 409 BOTS__EDIT_RUNNING: stop it first. Marketplace copies are snapshots and keep what they copied.',
      params: ZBotIdParamsSchema,
      body: ZBotUpdateRequestSchema,
      response: { 200: success(ZBotSchema) },
    },
    handler: async (request) =>
      ok(await bots.update(authOf(request).user.id, request.params.id, request.body)),
  });
}

/** Starting and stopping bots, in paper mode and on chain, and their production status. */
function registerBotRunRoutes(app: ZodApp, deps: BotsRoutesDeps): void {
  const { bots, requireAuth } = deps;

  app.post('/api/bots/:id/start', {
    preHandler: requireAuth,
    config: { rateLimit: RUN_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary:
        'Starts one of the caller’s bots in paper mode: a virtual 1,000 of the quote token at live prices',
      params: ZBotIdParamsSchema,
      response: { 200: success(ZBotSchema) },
    },
    handler: async (request) => ok(await bots.start(authOf(request).user.id, request.params.id)),
  });

  app.post('/api/bots/:id/stop', {
    preHandler: requireAuth,
    config: { rateLimit: RUN_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary: 'Stops one of the caller’s bots (a stopped bot stays stopped)',
      params: ZBotIdParamsSchema,
      response: { 200: success(ZBotSchema) },
    },
    handler: async (request) => ok(await bots.stop(authOf(request).user.id, request.params.id)),
  });

  app.post('/api/bots/production/:id/start', {
    preHandler: requireAuth,
    config: { rateLimit: RUN_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary: 'Starts one of the caller’s bots on chain (network_mode mainnet) with the SOL they approved',
      description:
        'Answers BOTS__DELEGATION_REQUIRED (its message contains "delegation approval") until the caller has approved a delegation that is in effect on chain.',
      params: ZBotIdParamsSchema,
      response: { 200: success(ZBotSchema) },
    },
    handler: async (request) => ok(await bots.startOnChain(authOf(request).user, request.params.id)),
  });

  app.post('/api/bots/production/:id/stop', {
    preHandler: requireAuth,
    config: { rateLimit: RUN_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary: 'Stops one of the caller’s bots (what it holds stays in its account until withdrawn)',
      params: ZBotIdParamsSchema,
      response: { 200: success(ZBotSchema) },
    },
    handler: async (request) => ok(await bots.stop(authOf(request).user.id, request.params.id)),
  });

  app.get('/api/bots/production/status', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Every bot of the caller: status, newest run, trades with their transactions',
      response: { 200: success(z.array(ZProductionStatusSchema)) },
    },
    handler: async (request) => ok(await bots.productionStatuses(authOf(request).user.id)),
  });

  app.get('/api/bots/production/:id/status', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'One bot’s status, newest run and trades with their transactions',
      params: ZBotIdParamsSchema,
      response: { 200: success(ZProductionStatusSchema) },
    },
    handler: async (request) => ok(await bots.productionStatus(authOf(request).user.id, request.params.id)),
  });
}

/** Backtests of a saved bot, and "Run and Test Bot" runs of an unsaved one (cancellable). */
function registerBotBacktestRoutes(app: ZodApp, deps: BotsRoutesDeps): void {
  const { bots, requireAuth } = deps;

  app.post('/api/bots/backtest', {
    preHandler: requireAuth,
    config: { rateLimit: BACKTEST_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary: 'Backtests one of the caller’s bots over a past range from an initial balance (quote token)',
      description:
        'Closed candles at the bot’s interval and pair (or `interval` and `symbol` given); fills at the decision candle’s close, sized by the bot’s `sizing`, priced by the live maker’s RFQ pricing and fees (`costs.model` venue, the default) or a fixed fee and slippage per fill (`costs.model` fixed, 0–1000 bps each, default 5); stop loss checked before take profit within a candle. The result reports fees and slippage paid (in total and per fill) and a buy-and-hold benchmark over the same candles. Deterministic.',
      body: ZBacktestRequestSchema,
      response: { 200: success(ZBacktestResultSchema) },
    },
    handler: async (request, reply) =>
      sendResultJson(reply, await bots.backtest(authOf(request).user.id, request.body)),
  });

  app.post('/api/bots/test', {
    preHandler: requireAuth,
    config: { rateLimit: BACKTEST_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary: '"Run and Test Bot": an unsaved strategy over the last 30 days (default) from 1,000',
      description:
        'With a `test_id` (a UUID the client makes), POST /bots/test/{test_id}/cancel stops the run, waiting or computing; it then answers 409 BACKTEST__CANCELLED.',
      body: ZBotTestRequestSchema,
      response: { 200: success(ZBacktestResultSchema) },
    },
    handler: async (request, reply) =>
      sendResultJson(reply, await bots.test(authOf(request).user.id, request.body)),
  });

  app.post('/api/bots/test/:test_id/cancel', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary:
        'Cancels the caller’s "Run and Test Bot" run of that test_id: its sandbox or thread is stopped',
      params: ZBotTestIdParamsSchema,
      response: { 200: success(z.object({ test_id: z.string(), cancelled: z.boolean() })) },
    },
    handler: async (request) => ok(bots.cancelTest(authOf(request).user.id, request.params.test_id)),
  });
}
