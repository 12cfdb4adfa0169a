/**
 * The standalone HTTP transport of the JSON-RPC handler (node:http, keep-alive): POST a JSON-RPC
 * body to any path; `GET /health` answers `ok` as validators do. The app server does not use this:
 * it mounts the same handler at /rpc on its own port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
}

export interface LocalnetServer {
  /** `http://host:port`, ready for `createSolanaRpc(url)`. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
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
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
