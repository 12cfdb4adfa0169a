import type { ModuleContext, ServerModule } from '../../lib/server-module';
import { createEmailService, type EmailService } from './email.service';
import { registerOutboxRoutes } from './outbox.routes';

/** Outgoing email (SMTP, or the outbox table); DEV_OUTBOX serves that outbox over HTTP. */
export function createEmailModule({ config, database, log }: ModuleContext): ServerModule<EmailService> {
  const email = createEmailService({ db: database.db, smtpUrl: config.smtpUrl, from: config.emailFrom, log });
  return {
    service: email,
    routes(server) {
      if (config.devOutbox) registerOutboxRoutes(server, { email });
    },
  };
}
