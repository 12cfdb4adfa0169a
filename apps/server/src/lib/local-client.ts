import { BlockList, isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
export function isLocalClient(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((header) => request.headers[header] === undefined);
}

/**
 * onRequest hook of the /api/dev/* routes: anyone but a local client gets the 404 of an unknown
 * route. onRequest runs before validation, so a remote client cannot tell the route exists from a 400.
 */
export async function localClientsOnly(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!isLocalClient(request)) return reply.callNotFound();
}
