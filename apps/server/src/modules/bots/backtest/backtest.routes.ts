import { Readable } from 'node:stream';
import type { preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { success, ZBacktestProgressSchema } from '@solterm/contracts';
import { AppError } from '../../../lib/app-error';
import { ok } from '../../../lib/reply';
import type { ZodApp } from '../../../lib/zod-app';
import { authOf } from '../../../plugins/authenticate';
import type { BacktestExports } from './backtest-exports';
import type { BacktestStatus } from './backtest-task';

export interface BacktestRoutesDeps {
  exports: BacktestExports;
  status: BacktestStatus;
  requireAuth: preHandlerAsyncHookHandler;
}

const ZExportParamsSchema = z.object({
  id: z.string().uuid({ message: 'No such backtest export of yours' }),
});

/** A backtest's place and progress, and its every fill as CSV (POST /api/bots/backtest answers the rest). */
export function registerBacktestRoutes(app: ZodApp, deps: BacktestRoutesDeps): void {
  const { exports, status, requireAuth } = deps;
  const tags = ['bots'];
  const security = [{ bearerAuth: [] }];

  app.get('/api/bots/backtest/status', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The caller’s backtests waiting or running: place in the queue, then candles done',
      description:
        'The same reports as the backtest_progress push, from the moment a backtest is accepted (on PostgreSQL, those computed by the process answering).',
      response: { 200: success(z.array(ZBacktestProgressSchema)) },
    },
    handler: async (request) => ok(status.of(authOf(request).user.id)),
  });

  app.get('/api/bots/backtest/exports/:id', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Every fill of one of the caller’s backtests as CSV (the id is the result’s export_id)',
      description:
        'Streamed a part at a time. Kept for the caller’s latest 3 backtests, for a day; anyone else’s id answers 404.',
      params: ZExportParamsSchema,
    },
    handler: async (request, reply) => {
      const parts = await exports.open(request.params.id, authOf(request).user.id);
      if (!parts) throw new AppError('BACKTEST__EXPORT_NOT_FOUND');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="backtest-${request.params.id}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(parts));
    },
  });
}
