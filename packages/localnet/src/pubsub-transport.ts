/**
 * PubSub's WebSocket transport: upgrades on an HTTP server (any path) to a {@link PubSub}
 * connection, pings every 30 s and drops a client that stopped answering, and refuses frames over
 * 1 MiB. Used by the standalone server (on its port and on port + 1, where web3.js looks) and, in
 * the app, by the cluster worker's host.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PubSubConnection } from './rpc/pubsub';

const HEARTBEAT_MS = 30_000;
const MAX_FRAME_BYTES = 1024 * 1024;

/** Anything that opens PubSub connections: the PubSub itself, or a host forwarding to a worker. */
export interface PubSubEndpoint {
  connect(send: (text: string) => void): PubSubConnection;
}

export interface PubSubSockets {
  /** Upgrades one request (call from the server's 'upgrade' event). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/**
 * Serves one open WebSocket as a PubSub connection: text frames in, notifications out, the
 * connection's subscriptions dropped when it closes, a ping every 30 s and the socket ended when a
 * ping went unanswered. The app's `/rpc` upgrade (through @fastify/websocket) uses it too.
 */
export function servePubSubSocket(socket: WebSocket, endpoint: PubSubEndpoint): void {
  let alive = true;
  socket.on('pong', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const connection = endpoint.connect((text) => {
    if (socket.readyState === socket.OPEN) socket.send(text);
  });
  socket.on('message', (data, isBinary) => {
    if (!isBinary) connection.handle(data.toString());
  });
  socket.on('close', () => {
    clearInterval(heartbeat);
    connection.close();
  });
  socket.on('error', () => socket.terminate());
}

export function createPubSubSockets(endpoint: PubSubEndpoint): PubSubSockets {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  wss.on('connection', (socket: WebSocket) => servePubSubSocket(socket, endpoint));
  return {
    handleUpgrade(request, socket, head) {
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    close() {
      for (const socket of wss.clients) socket.terminate();
      wss.close();
    },
  };
}

/** Serves PubSub upgrades on `server` (every path). */
export function attachPubSub(server: Server, sockets: PubSubSockets): void {
  server.on('upgrade', (request, socket, head) => sockets.handleUpgrade(request, socket, head));
}
