import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  success,
  ZBotIdParamsSchema,
  ZBotSchema,
  ZMarketplaceBotDetailSchema,
  ZMarketplacePageSchema,
  ZMarketplaceQuerySchema,
} from '@solterm/contracts';
import { ok } from '../../../lib/reply';
import type { ZodApp } from '../../../lib/zod-app';
import { authOf } from '../../../plugins/authenticate';
import type { BotsService } from '../bots.service';
import type { MarketplaceService } from './marketplace.service';

/** A detail backtests the bot over its live window: each client may open this many a minute. */
export const DETAIL_RATE_LIMIT = { max: 30, timeWindow: 60_000 };

/** The bot marketplace (part 2 §2 Market, §7 GET /bots/marketplace). Private bots never appear. */
export function registerMarketplaceRoutes(
  app: ZodApp,
  deps: { marketplace: MarketplaceService; bots: BotsService; requireAuth: preHandlerAsyncHookHandler },
): void {
  const { marketplace, bots, requireAuth } = deps;
  const tags = ['marketplace'];
  const security = [{ bearerAuth: [] }];

  app.get('/api/bots/marketplace', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Public bots: search by name, creator or strategy; risk filter; sorted and paged',
      description:
        'Every figure comes from the bot’s own recorded fills (record_source: paper, onchain or none); authors cannot set them.',
      querystring: ZMarketplaceQuerySchema,
      response: { 200: success(ZMarketplacePageSchema) },
    },
    handler: async (request) => ok(await marketplace.list(authOf(request).user.id, request.query)),
  });

  app.get('/api/bots/marketplace/:id', {
    preHandler: requireAuth,
    config: { rateLimit: DETAIL_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary: 'A public bot with its verified track record and its backtest-vs-live drift score',
      params: ZBotIdParamsSchema,
      response: { 200: success(ZMarketplaceBotDetailSchema) },
    },
    handler: async (request) => ok(await marketplace.detail(authOf(request).user.id, request.params.id)),
  });

  app.post('/api/bots/marketplace/:id/copy', {
    preHandler: requireAuth,
    config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    schema: {
      tags,
      security,
      summary: 'Copies a public bot (strategy, config and code) into your bots, stopped and private',
      params: ZBotIdParamsSchema,
      response: { 200: success(ZBotSchema) },
    },
    handler: async (request) =>
      ok(await marketplace.copy(authOf(request).user, request.params.id, (row) => bots.wireOf(row))),
  });
}
