import type { preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  success,
  ZOptimizationSchema,
  ZOptimizeIdParamsSchema,
  ZOptimizeRequestSchema,
} from '@solterm/contracts';
import { ok } from '../../../lib/reply';
import type { ZodApp } from '../../../lib/zod-app';
import { authOf } from '../../../plugins/authenticate';
import { RUN_RATE_LIMIT } from '../bots.routes';
import type { Optimizer } from './optimize.service';

/**
 * Starting an optimisation reads the bot and plans its trials: each session may try this many a minute
 * (counted per bearer token, as bot starts are).
 */
export const OPTIMIZE_RATE_LIMIT = { ...RUN_RATE_LIMIT, max: 30 };

export interface OptimizeRoutesDeps {
  optimizer: Optimizer;
  requireAuth: preHandlerAsyncHookHandler;
}

/** The parameter optimiser: start (answered at once), read, cancel. Only the owner sees an optimisation. */
export function registerOptimizeRoutes(app: ZodApp, deps: OptimizeRoutesDeps): void {
  const { optimizer, requireAuth } = deps;
  const tags = ['bots'];
  const security = [{ bearerAuth: [] }];

  app.post('/api/bots/optimize', {
    preHandler: requireAuth,
    config: { rateLimit: OPTIMIZE_RATE_LIMIT },
    schema: {
      tags,
      security,
      summary: 'Optimises one of the caller’s bots’ parameters by walk-forward backtests (answers at once)',
      description:
        'Grid (every point, refused past max_trials) or random (max_trials distinct points drawn with the seed). Each trial backtests every fold’s train (in-sample) and test (out-of-sample) window; the best set is the one with the highest mean out-of-sample objective. Progress: the optimization_progress push. One optimisation queued or running per user (409 OPTIMIZE__BUSY); trials × candles at most 10,000,000.',
      body: ZOptimizeRequestSchema,
      response: { 200: success(z.object({ optimization_id: z.string() })) },
    },
    handler: async (request) => ok(await optimizer.start(authOf(request).user.id, request.body)),
  });

  app.get('/api/bots/optimize/:id', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary:
        'One of the caller’s optimisations: every trial with its folds, the best set and the overfitting warning',
      params: ZOptimizeIdParamsSchema,
      response: { 200: success(ZOptimizationSchema) },
    },
    handler: async (request) => ok(await optimizer.get(authOf(request).user.id, request.params.id)),
  });

  app.post('/api/bots/optimize/:id/cancel', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Cancels one of the caller’s optimisations: its running trial is stopped, no more are run',
      params: ZOptimizeIdParamsSchema,
      response: {
        200: success(z.object({ optimization_id: z.string(), cancelled: z.boolean(), state: z.string() })),
      },
    },
    handler: async (request) => ok(await optimizer.cancel(authOf(request).user.id, request.params.id)),
  });
}
