import path from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import type { AppConfig } from './config/env';
import type { HotAnswers } from './lib/hot-answers';
import type { ZodApp } from './lib/zod-app';
import { SERVER_ROOT } from './lib/server-root';
import { registerApiDocs } from './plugins/api-docs';
import { createRequireAuth } from './plugins/authenticate';
import { registerWebApp } from './plugins/web-app';
import { registerSecurityHeaders, type HeaderList } from './plugins/security-headers';
import type { Services } from './services';

/** Largest JSON-RPC request body /rpc accepts (a signed transaction is at most 1232 bytes). */
const RPC_BODY_LIMIT_BYTES = 64 * 1024;

async function registerPlugins(server: ZodApp, version: string, securityHeaders: HeaderList): Promise<void> {
  registerSecurityHeaders(server, securityHeaders);
  await server.register(fastifyRateLimit, { global: false });
  await server.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await registerApiDocs(server, version);
}

/** CORS of /rpc: the standalone cluster's (any origin, POST with JSON, kit's solana-client header). */
const RPC_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client',
  'access-control-max-age': '86400',
};

/** PubSub connections one client (IP) may hold open at once on /rpc. */
const PUBSUB_CONNECTIONS_PER_CLIENT = 16;

/** The public JSON-RPC of the embedded cluster at /rpc: raw text in and out, limited per client. */
async function registerClusterRpc(server: ZodApp, services: Services, config: AppConfig): Promise<void> {
  const { cluster } = services;
  if (!cluster) return;
  // Raw text in and out: answers hold u64 values beyond 2^53, written as exact integer literals.
  await server.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: RPC_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    // Solana PubSub (what wallets and web3.js/kit subscribe to): a WebSocket upgrade of /rpc,
    // served by the cluster's worker. Each client may hold a few connections at once.
    const open = new Map<string, number>();
    scope.get('/rpc', { websocket: true, schema: { hide: true } }, (socket, request) => {
      const client = request.ip;
      if ((open.get(client) ?? 0) >= PUBSUB_CONNECTIONS_PER_CLIENT) {
        socket.close(1008, 'too many PubSub connections from this client');
        return;
      }
      open.set(client, (open.get(client) ?? 0) + 1);
      // Its connections share one budget of notification bytes per commit (pubsub-budget.ts).
      cluster.servePubSubSocket(socket, client);
      socket.on('close', () => {
        const left = (open.get(client) ?? 1) - 1;
        if (left > 0) open.set(client, left);
        else open.delete(client);
      });
    });
    // Browsers' dApps and wallets call /rpc from other origins, as they call public clusters.
    scope.options('/rpc', { schema: { hide: true } }, async (_request, reply) =>
      reply.code(204).headers(RPC_CORS_HEADERS).send(),
    );
    // Every caller of /rpc is public: limited per client (its IP) here and by the handler's limits.
    scope.post(
      '/rpc',
      {
        bodyLimit: RPC_BODY_LIMIT_BYTES,
        schema: { hide: true },
        config: { rateLimit: { max: config.rpc.rateLimit.max, timeWindow: config.rpc.rateLimit.windowMs } },
      },
      async (request, reply) => {
        const answer = await cluster.handleJsonRpcBytes(request.body as string, {
          kind: 'public',
          clientId: request.ip,
        });
        return reply
          .headers({ 'access-control-allow-origin': '*' })
          .type('application/json; charset=utf-8')
          .send(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength));
      },
    );
  });
}

/** Registers the API (every module's routes), WebSocket, docs, /rpc and the web app on `server`. */
export async function registerHttpApp(
  server: ZodApp,
  services: Services,
  config: AppConfig,
  { version, hot }: { version: string; hot: HotAnswers },
) {
  await registerPlugins(server, version, hot.securityHeaders);
  const http = { requireAuth: createRequireAuth(services.auth), version, hot };
  for (const module of services.modules) module.routes?.(server, http);
  await registerClusterRpc(server, services, config);
  await registerWebApp(server, config.webDistDir ?? path.resolve(SERVER_ROOT, '../web/dist'));
}
