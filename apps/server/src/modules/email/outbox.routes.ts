import { z } from 'zod';
import { success, ZOutboxEmailSchema, ZOutboxQuerySchema } from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import type { EmailService } from './email.service';

/**
 * The local mail box: without SMTP, emails (password resets…) are read here. Registered only on
 * non-mainnet networks, so a production deployment never exposes it.
 */
export function registerOutboxRoutes(app: ZodApp, deps: { email: EmailService }): void {
  app.get('/api/dev/outbox', {
    schema: {
      tags: ['dev'],
      summary: 'Emails sent by the app, newest first (non-mainnet networks only)',
      querystring: ZOutboxQuerySchema,
      response: { 200: success(z.array(ZOutboxEmailSchema)) },
    },
    handler: async (request) => ok(await deps.email.listOutbox(request.query)),
  });
}
