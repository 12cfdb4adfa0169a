import type { preHandlerAsyncHookHandler } from 'fastify';
import { success, ZServerTransactionStatusSchema } from '@solterm/contracts';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import type { Relay } from './relay.service';

export interface RelayRoutesDeps {
  relay: Relay;
  requireAuth: preHandlerAsyncHookHandler;
}

const ZSignatureParamsSchema = z.object({ signature: z.string().min(32).max(128) });

/** Where a transaction the server sent for you (a withdrawal, a faucet mint) stands. */
export function registerRelayRoutes(app: ZodApp, deps: RelayRoutesDeps): void {
  app.get('/api/transactions/:signature', {
    preHandler: deps.requireAuth,
    schema: {
      tags: ['wallet'],
      security: [{ bearerAuth: [] }],
      summary: 'The status of a transaction sent for you: pending, landed, failed or expired',
      description:
        'A pending one is asked about on the chain again. Failed and expired ones paid nothing: what they debited was credited back.',
      params: ZSignatureParamsSchema,
      response: { 200: success(ZServerTransactionStatusSchema) },
    },
    handler: async (request) => {
      const { signature } = request.params;
      const status = await deps.relay.transactionStatus(authOf(request).user.id, signature);
      if (!status) throw new AppError('REQUEST__TRANSACTION_NOT_FOUND');
      return ok({ signature, status });
    },
  });
}
