/**
 * PubSub's WebSocket transport: upgrades on an HTTP server (any path) to a {@link PubSub}
 * connection, pings every 30 s and drops a client that stopped answering, refuses frames over
 * 1 MiB, closes a connection that sends more frames than a client needs, drops one that does
 * not read its notifications, and closes one the PubSub ended (its notifications outgrew its byte
 * budget; connections from one address share a budget). Used by the standalone server (on its port and on port + 1, where
 * web3.js looks) and, in the app, by the cluster worker's host.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PubSubConnection, PubSubConnectOptions } from './rpc/pubsub';

const HEARTBEAT_MS = 30_000;
const MAX_FRAME_BYTES = 1024 * 1024;

/** What one connection may cost: frames in per window, notifications queued unread. */
export interface PubSubSocketLimits {
  /** Frames a connection may send per window; the next closes it (1008). A batch is one frame. */
  readonly maxFramesPerWindow: number;
  readonly windowMs: number;
  /** Bytes of notifications waiting for a client that does not read; past them it is dropped. */
  readonly maxBufferedBytes: number;
}

/**
 * Subscribing takes a client a handful of frames; 1,000 in 10 s is far past that. A client whose
 * unread notifications pass 16 MiB is not keeping up, and would otherwise grow the server's memory.
 */
export const DEFAULT_PUBSUB_SOCKET_LIMITS: PubSubSocketLimits = {
  maxFramesPerWindow: 1000,
  windowMs: 10_000,
  maxBufferedBytes: 16 * 1024 * 1024,
};

/** Anything that opens PubSub connections: the PubSub itself, or a host forwarding to a worker. */
export interface PubSubEndpoint {
  connect(send: (text: string) => void, options?: PubSubConnectOptions): PubSubConnection;
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
 * `clientId` (the client's address) makes the client's connections share one notification budget.
 */
export function servePubSubSocket(
  socket: WebSocket,
  endpoint: PubSubEndpoint,
  clientId?: string,
  limits: PubSubSocketLimits = DEFAULT_PUBSUB_SOCKET_LIMITS,
): void {
  let alive = true;
  socket.on('pong', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const connection = endpoint.connect(
    (text) => {
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > limits.maxBufferedBytes) return socket.terminate();
      socket.send(text);
    },
    {
      clientId,
      end: (reason) => {
        if (socket.readyState === socket.OPEN) socket.close(1008, reason);
      },
    },
  );
  let windowStart = Date.now();
  let frames = 0;
  socket.on('message', (data, isBinary) => {
    const now = Date.now();
    if (now - windowStart >= limits.windowMs) {
      windowStart = now;
      frames = 0;
    }
    frames += 1;
    if (frames > limits.maxFramesPerWindow) {
      if (frames === limits.maxFramesPerWindow + 1) socket.close(1008, 'too many PubSub requests');
      return;
    }
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
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) =>
    servePubSubSocket(socket, endpoint, request.socket.remoteAddress),
  );
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
