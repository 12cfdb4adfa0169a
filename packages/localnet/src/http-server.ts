/**
 * The standalone HTTP transport of the JSON-RPC handler (node:http, keep-alive): POST a JSON-RPC
 * body to any path; `GET /health` answers `ok` as validators do. The app server does not use this:
 * it mounts the same handler at /rpc on its own port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attachPubSub, createPubSubSockets, type PubSubEndpoint } from './pubsub-transport';
import type { JsonRpcHandler } from './rpc/json-rpc-handler';

/** Bodies larger than this are refused (a batch of a few thousand transactions fits). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client',
  'access-control-max-age': '86400',
};

/** What the transport needs: raw body in, serialised JSON-RPC answer out. */
export type JsonRpcTextHandler = Pick<JsonRpcHandler, 'handleJsonRpcText'>;

export interface LocalnetServerOptions {
  /** Usually `createJsonRpcHandler(cluster)`. */
  readonly handler: JsonRpcTextHandler;
  /** TCP port (default 8899); 0 picks a free one. */
  readonly port?: number;
  /** Interface to bind (default 127.0.0.1). */
  readonly host?: string;
  /**
   * Solana PubSub over WebSocket, served on the same port (an upgrade on any path) and on
   * `pubsubPort` — by default port + 1, where web3.js derives its WebSocket URL (a free port when
   * `port` is 0; null serves the same port only).
   */
  readonly pubsub?: PubSubEndpoint;
  readonly pubsubPort?: number | null;
}

export interface LocalnetServer {
  /** `http://host:port`, ready for `createSolanaRpc(url)`. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** `ws://host:port+1`: PubSub where web3.js looks for it (also served at `url` as ws://). */
  readonly pubsubUrl: string | null;
  /** Stops accepting requests and closes open connections. */
  close(): Promise<void>;
}

const CORS_HEADER_LIST = Object.entries(CORS_HEADERS).flat();

function respond(response: ServerResponse, status: number, body: string, contentType: string): void {
  // A flat header list skips the per-request header object Node would otherwise build and copy.
  response.writeHead(status, [
    ...CORS_HEADER_LIST,
    'content-type',
    contentType,
    'content-length',
    String(Buffer.byteLength(body)),
  ]);
  response.end(body);
}

function handleRequest(
  handler: JsonRpcTextHandler,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  if (request.method === 'OPTIONS') {
    response.writeHead(204, CORS_HEADERS);
    response.end();
    return;
  }
  if (request.method === 'GET' && request.url === '/health') {
    respond(response, 200, 'ok', 'text/plain');
    return;
  }
  if (request.method !== 'POST') {
    respond(response, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      respond(response, 413, 'Payload Too Large', 'text/plain');
      request.destroy();
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (size > MAX_BODY_BYTES) return;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    handler.handleJsonRpcText(body).then(
      (text) => respond(response, 200, text, 'application/json; charset=utf-8'),
      () => respond(response, 500, 'Internal Server Error', 'text/plain'),
    );
  });
}

/** Serves a JSON-RPC handler over HTTP. */
export async function startLocalnetServer(options: LocalnetServerOptions): Promise<LocalnetServer> {
  const server = createServer((request, response) => handleRequest(options.handler, request, response));
  server.keepAliveTimeout = 60_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8899, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostText = host.includes(':') ? `[${host}]` : host;
  const sockets = options.pubsub ? createPubSubSockets(options.pubsub) : undefined;
  let pubsubServer: Server | undefined;
  let pubsubUrl: string | null = null;
  if (sockets) {
    attachPubSub(server, sockets);
    if (options.pubsubPort !== null) {
      pubsubServer = createServer((_request, response) =>
        respond(response, 426, 'Upgrade Required', 'text/plain'),
      );
      attachPubSub(pubsubServer, sockets);
      const wanted = options.pubsubPort ?? (options.port === 0 ? 0 : port + 1);
      await new Promise<void>((resolve, reject) => {
        pubsubServer!.once('error', reject);
        pubsubServer!.listen(wanted, host, () => resolve());
      });
      pubsubUrl = `ws://${hostText}:${(pubsubServer.address() as AddressInfo).port}`;
    }
  }
  const closeServer = (target: Server) =>
    new Promise<void>((resolve, reject) => {
      target.close((error) => (error === undefined ? resolve() : reject(error)));
      target.closeAllConnections();
    });
  return {
    url: `http://${hostText}:${port}`,
    port,
    server,
    pubsubUrl,
    async close() {
      sockets?.close();
      await Promise.all([closeServer(server), pubsubServer ? closeServer(pubsubServer) : undefined]);
    },
  };
}
