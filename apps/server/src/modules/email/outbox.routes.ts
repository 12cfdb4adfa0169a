import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { success, ZOutboxEmailSchema, ZOutboxQuerySchema } from '@solterm/contracts';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import type { EmailService } from './email.service';

/** Headers a reverse proxy adds: a loopback socket carrying them is a proxy relaying a remote client. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  const family = address ? isIP(address) : 0;
  if (family === 0) return false;
  return LOOPBACK.check(address!, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * A client on this machine, judged by the TCP socket's remote address (never request.ip, which
 * follows X-Forwarded-For when a proxy is trusted), and not relayed by a proxy on this machine.
 */
function isLocalClient(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((header) => request.headers[header] === undefined);
}

/**
 * The local mail box: without SMTP, emails (password resets…) are read here. It holds every user's
 * reset links, so it is registered only when DEV_OUTBOX is on (by default on localnet only, never on
 * mainnet) and answers only clients on this machine; anyone else gets the 404 of an unknown route.
 */
export function registerOutboxRoutes(app: ZodApp, deps: { email: EmailService }): void {
  app.get('/api/dev/outbox', {
    // onRequest runs before validation, so a remote client cannot tell the route exists from a 400.
    onRequest: async (request, reply) => {
      if (!isLocalClient(request)) return reply.callNotFound();
    },
    schema: {
      tags: ['dev'],
      summary: 'Emails sent by the app, newest first (DEV_OUTBOX, loopback clients only)',
      querystring: ZOutboxQuerySchema,
      response: { 200: success(z.array(ZOutboxEmailSchema)) },
    },
    handler: async (request) => ok(await deps.email.listOutbox(request.query)),
  });
}
