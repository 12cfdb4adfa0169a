import {
  success,
  ZHolderAnalysisQuerySchema,
  ZHolderAnalysisSchema,
  ZHolderStatsSchema,
  ZHolderTokenParamsSchema,
} from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import type { HoldersService } from './holders.service';

/** GET /api/holder-analysis/{token} and /stats (public). */
export function registerHoldersRoutes(app: ZodApp, deps: { holders: HoldersService }): void {
  const tags = ['market'];
  app.get('/api/holder-analysis/:token', {
    schema: {
      tags,
      summary: 'Largest holders of a token; holder_type all|smart|kol|remarks|tracking, limit default 10',
      params: ZHolderTokenParamsSchema,
      querystring: ZHolderAnalysisQuerySchema,
      response: { 200: success(ZHolderAnalysisSchema) },
    },
    handler: async (request) =>
      ok(await deps.holders.getHolders(request.params.token, request.query.holder_type, request.query.limit)),
  });

  app.get('/api/holder-analysis/:token/stats', {
    schema: {
      tags,
      summary: 'Share held, average cost and average share sold of the top 100 holders',
      params: ZHolderTokenParamsSchema,
      response: { 200: success(ZHolderStatsSchema) },
    },
    handler: async (request) => ok(await deps.holders.getStats(request.params.token)),
  });
}
