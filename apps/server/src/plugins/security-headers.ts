import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Header name and value pairs, in the order helmet sets them. */
export type HeaderList = readonly (readonly [string, string])[];

/** The policy every answer carries (helmet's defaults, with our Content-Security-Policy). */
export const SECURITY_HEADER_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'https:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      frameSrc: ["'self'", 'https:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
      // The app is served over plain http on localhost; upgrading would break it there.
      upgradeInsecureRequests: null,
    },
  },
};

/**
 * The headers helmet sets for `options`, computed once: they depend on nothing in the request (no
 * nonce or function directive), and @fastify/helmet built a new helmet middleware — re-rendering
 * the Content-Security-Policy — on every request.
 */
export function securityHeadersOf(options: HelmetOptions): HeaderList {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string) {
      headers.set(name.toLowerCase(), value);
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return [...headers];
}

/** Sets `headers` on every answer, before routing goes on (as helmet's own hook did). */
export function registerSecurityHeaders(server: FastifyInstance, headers: HeaderList): void {
  server.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
