import { desc, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { TOutboxEmail } from '@solterm/contracts';
import type { Db } from '../../db/database';
import { emailOutbox } from './email.tables';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
}

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * Sends mail through SMTP when SMTP_URL is set; every message is also recorded in the outbox table,
 * which is the delivery itself in local mode (read at GET /api/dev/outbox and printed to the log).
 */
export function createEmailService(deps: { db: Db; smtpUrl?: string; from: string; log: FastifyBaseLogger }) {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : undefined;

  return {
    async send(email: OutgoingEmail): Promise<void> {
      await deps.db.insert(emailOutbox).values({
        toAddress: email.to,
        subject: email.subject,
        text: email.text,
        transport: transport ? 'smtp' : 'outbox',
      });
      if (transport) {
        await transport.sendMail({ from: deps.from, to: email.to, subject: email.subject, text: email.text });
        deps.log.info({ to: email.to, subject: email.subject }, 'email sent via SMTP');
      } else {
        deps.log.info(
          { to: email.to, subject: email.subject, text: email.text },
          'email written to the dev outbox',
        );
      }
    },

    async listOutbox(query: { to?: string; limit: number }): Promise<TOutboxEmail[]> {
      const rows = await deps.db
        .select()
        .from(emailOutbox)
        .where(query.to ? eq(emailOutbox.toAddress, query.to.toLowerCase()) : undefined)
        .orderBy(desc(emailOutbox.createdAt))
        .limit(query.limit);
      return rows.map((row) => ({
        id: row.id,
        to: row.toAddress,
        subject: row.subject,
        text: row.text,
        links: row.text.match(LINK) ?? [],
        created_at: row.createdAt.toISOString(),
      }));
    },
  };
}

export type EmailService = ReturnType<typeof createEmailService>;
