import type { preHandlerAsyncHookHandler } from 'fastify';
import { success, ZBotDetailQuerySchema, ZBotDetailSchema, ZBotIdParamsSchema } from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import type { BotDetail } from './live/bot-detail';

/** The owner's view of what one of their bots did (another user's bot answers 404 like the rest). */
export function registerBotDetailRoutes(
  app: ZodApp,
  deps: { detail: BotDetail; requireAuth: preHandlerAsyncHookHandler },
): void {
  app.get('/api/bots/:id/detail', {
    preHandler: deps.requireAuth,
    schema: {
      tags: ['bots'],
      security: [{ bearerAuth: [] }],
      summary:
        'One of the caller’s bots: its runs, a run’s fills (newest first, paged) with their transactions, its open position and unrealized PnL at the live price, its equity curve and errors',
      params: ZBotIdParamsSchema,
      querystring: ZBotDetailQuerySchema,
      response: { 200: success(ZBotDetailSchema) },
    },
    handler: async (request) =>
      ok(await deps.detail.detail(authOf(request).user.id, request.params.id, request.query)),
  });
}
