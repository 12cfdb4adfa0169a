import { z } from 'zod';
import { success, ZOutboxEmailSchema, ZOutboxQuerySchema } from '@solterm/contracts';
import { localClientsOnly } from '../../lib/local-client';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import type { EmailService } from './email.service';

/**
 * The local mail box: without SMTP, emails (password resets…) are read here. It holds every user's
 * reset links, so it is registered only when DEV_OUTBOX is on (by default on localnet only, never on
 * mainnet) and answers only clients on this machine; anyone else gets the 404 of an unknown route.
 */
export function registerOutboxRoutes(app: ZodApp, deps: { email: EmailService }): void {
  app.get('/api/dev/outbox', {
    onRequest: localClientsOnly,
    schema: {
      tags: ['dev'],
      summary: 'Emails sent by the app, newest first (DEV_OUTBOX, loopback clients only)',
      querystring: ZOutboxQuerySchema,
      response: { 200: success(z.array(ZOutboxEmailSchema)) },
    },
    handler: async (request) => ok(await deps.email.listOutbox(request.query)),
  });
}
