import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { HeaderList } from '../plugins/security-headers';
import { ok } from './reply';

/** A public answer's bytes as they are sent, with the headers of a 200 and of a 304 written out. */
export interface HotAnswer {
  readonly body: Buffer;
  readonly etag: string;
  /** Every header of the 200 (security headers included), as node's writeHead takes them. */
  readonly full: string[];
  /** The same for a 304 to a client that holds these bytes. */
  readonly notModified: string[];
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Public GETs whose answer is ready before the request comes (the dashboard's coins, polled by every
 * open dashboard): the server answers them before Fastify routes the request, so none of Fastify's
 * per-request work (request and reply objects, child logger, hooks) is paid for bytes that are
 * already known. Only an exact `GET <path>` with an answer ready is served here; everything else —
 * a query string, HEAD, the first request after the answer changed, the server closing — goes to
 * Fastify's route, which serves the same bytes with the same headers.
 */
export function createHotAnswers(securityHeaders: HeaderList) {
  const routes = new Map<string, () => HotAnswer | undefined>();
  let closing = false;

  function serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || closing) return false;
    const answer = routes.get(request.url!)?.();
    if (!answer) return false;
    if (request.headers['if-none-match'] === answer.etag) {
      response.writeHead(304, answer.notModified);
      response.end();
    } else {
      response.writeHead(200, answer.full);
      response.end(answer.body);
    }
    return true;
  }

  return {
    /** The security headers every answer carries (helmet's, computed once). */
    securityHeaders,

    /** Serves `path` from `current` while it has an answer (undefined: not ready, Fastify serves). */
    route(path: string, current: () => HotAnswer | undefined): void {
      routes.set(path, current);
    },

    /** Puts the hot answers in front of Fastify's request handler on `server`. */
    install(server: Server): void {
      const handlers = server.listeners('request') as Handler[];
      if (handlers.length !== 1)
        throw new Error(`expected Fastify's one request handler, found ${handlers.length}`);
      const [routed] = handlers;
      server.removeListener('request', routed!);
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        if (!serve(request, response)) routed!(request, response);
      });
    },

    /** From now on every request goes to Fastify (which answers 503 while it closes). */
    close(): void {
      closing = true;
    },

    /** The bytes, ETag and headers of `data` as the `{ success, data }` envelope. */
    answerOf(data: unknown): HotAnswer {
      const body = Buffer.from(JSON.stringify(ok(data)));
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      const caching = ['etag', etag, 'cache-control', 'no-cache'];
      const security = securityHeaders.flat();
      return {
        body,
        etag,
        full: [...security, 'content-type', JSON_TYPE, 'content-length', String(body.length), ...caching],
        notModified: [...security, ...caching],
      };
    },
  };
}

export type HotAnswers = ReturnType<typeof createHotAnswers>;

/** Fastify's side of a hot answer: the same bytes and headers (the route's schema is not re-applied). */
export function sendHotAnswer(request: FastifyRequest, reply: FastifyReply, answer: HotAnswer) {
  reply.headers({ etag: answer.etag, 'cache-control': 'no-cache' });
  if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(answer.body);
}

/**
 * A hot answer that changes at most once a second (the market ticks on whole seconds): `build`'s
 * data, validated against `schema` and encoded once per second. `current` is this second's answer
 * if it is ready; `answer` waits for it (computing it once, whoever asks first).
 */
export function createPerSecondAnswer<T>(
  hot: Pick<HotAnswers, 'answerOf'>,
  schema: z.ZodType<T>,
  now: () => Date,
  build: () => Promise<T>,
) {
  let pending: { second: number; answer: Promise<HotAnswer> } | undefined;
  let ready: { second: number; answer: HotAnswer } | undefined;
  const secondNow = () => Math.floor(now().getTime() / 1000);
  return {
    current(): HotAnswer | undefined {
      return ready?.second === secondNow() ? ready.answer : undefined;
    },
    answer(): Promise<HotAnswer> {
      const second = secondNow();
      if (ready?.second === second) return Promise.resolve(ready.answer);
      if (pending?.second === second) return pending.answer;
      const answer = build().then((data) => {
        const encoded = hot.answerOf(schema.parse(data));
        if (!ready || ready.second <= second) ready = { second, answer: encoded };
        return encoded;
      });
      pending = { second, answer };
      answer.catch(() => {
        if (pending?.answer === answer) pending = undefined;
      });
      return answer;
    },
  };
}
