import type { preHandlerAsyncHookHandler } from 'fastify';
import { success, ZChartFillsQuerySchema, ZChartFillsSchema } from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import type { FillsService } from './fills.service';

/** Chart reads of the user's fills are cheap but unbounded in count: bounded per client. */
export const CHART_FILLS_RATE_LIMIT = { max: 120, timeWindow: 60_000 };

/** GET /api/trading/fills: the caller's own spot, bot and futures fills on a pair over a window. */
export function registerFillsRoutes(
  app: ZodApp,
  deps: { fills: FillsService; requireAuth: preHandlerAsyncHookHandler },
): void {
  app.get('/api/trading/fills', {
    preHandler: deps.requireAuth,
    config: { rateLimit: CHART_FILLS_RATE_LIMIT },
    schema: {
      tags: ['trading'],
      security: [{ bearerAuth: [] }],
      summary: "The caller's fills on a pair between two instants (spot, bot and futures), newest first",
      description:
        'For chart markers. `from` and `to` are unix seconds (both included, at most 400 days apart). At most 500 fills, the newest; `truncated` is true when the window held more. Futures fills show on the pair of the perp’s token quoted in USDC; bot fills on the pair the bot trades.',
      querystring: ZChartFillsQuerySchema,
      response: { 200: success(ZChartFillsSchema) },
    },
    handler: async (request) => ok(await deps.fills.chartFills(authOf(request).user.id, request.query)),
  });
}
