import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { TServerMessage } from '@solterm/contracts';
import type { Database } from '../../db/database';

const NOTIFY_CHANNEL = 'solterm_realtime';

interface Envelope {
  userId: string;
  message: TServerMessage;
}

/** An unmasked, final text frame (server to client) holding `text`. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}

/**
 * Tracks open sockets by user and by subscribed channel. `publish` reaches one user's sockets in every
 * server process: through Postgres NOTIFY when the database is PostgreSQL, in-process otherwise.
 */
export function createRealtimeHub(deps: { database: Database; log: FastifyBaseLogger }) {
  const socketsByUser = new Map<string, Set<WebSocket>>();
  const socketsByChannel = new Map<string, Set<WebSocket>>();
  const crossProcess = deps.database.kind === 'postgres';
  let stopListening: (() => Promise<void>) | undefined;

  function addTo(map: Map<string, Set<WebSocket>>, key: string, socket: WebSocket): void {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(socket);
  }

  function removeFrom(map: Map<string, Set<WebSocket>>, key: string, socket: WebSocket): void {
    const set = map.get(key);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) map.delete(key);
  }

  function sendRaw(sockets: Iterable<WebSocket> | undefined, raw: string): number {
    let sent = 0;
    for (const socket of sockets ?? []) {
      if (socket.readyState === socket.OPEN) {
        socket.send(raw);
        sent += 1;
      }
    }
    return sent;
  }

  /**
   * Sends one text message to many sockets, framed once: the WebSocket frame (RFC 6455 §5.2) is
   * built a single time and written to each connection's TCP socket in one write, instead of each
   * socket encoding and framing it again. Used when a socket negotiated no extension (this server
   * enables none, so frames are never compressed or queued); otherwise `send` is used.
   */
  function sendFramed(sockets: Iterable<WebSocket> | undefined, text: string): number {
    let sent = 0;
    let frame: Buffer | undefined;
    for (const socket of sockets ?? []) {
      if (socket.readyState !== socket.OPEN) continue;
      const tcp = (socket as unknown as { _socket?: { write(chunk: Buffer): boolean } })._socket;
      if (socket.extensions === '' && tcp) {
        frame ??= textFrame(text);
        tcp.write(frame);
      } else {
        socket.send(text);
      }
      sent += 1;
    }
    return sent;
  }

  function deliverLocally(envelope: Envelope): void {
    sendRaw(socketsByUser.get(envelope.userId), JSON.stringify(envelope.message));
  }

  return {
    async start(): Promise<void> {
      if (!crossProcess) return;
      stopListening = await deps.database.listen(NOTIFY_CHANNEL, (payload) => {
        try {
          deliverLocally(JSON.parse(payload) as Envelope);
        } catch (error) {
          deps.log.warn({ err: error }, 'dropped a malformed realtime notification');
        }
      });
    },

    async stop(): Promise<void> {
      await stopListening?.();
    },

    /** Sends a message to every socket of one user, in every server process. */
    async publish(userId: string, message: TServerMessage): Promise<void> {
      const envelope: Envelope = { userId, message };
      if (crossProcess) await deps.database.notify(NOTIFY_CHANNEL, JSON.stringify(envelope));
      else deliverLocally(envelope);
    },

    /** Sends data to the sockets of this process subscribed to a channel. Serialises once. Returns the count. */
    broadcast(channel: string, data: unknown): number {
      const sockets = socketsByChannel.get(channel);
      if (!sockets) return 0;
      return sendFramed(sockets, JSON.stringify({ type: 'channel', channel, data } satisfies TServerMessage));
    },

    bindUser(socket: WebSocket, userId: string): void {
      addTo(socketsByUser, userId, socket);
    },

    subscribe(socket: WebSocket, channel: string): void {
      addTo(socketsByChannel, channel, socket);
    },

    unsubscribe(socket: WebSocket, channel: string): void {
      removeFrom(socketsByChannel, channel, socket);
    },

    /** Forgets a closed socket everywhere. */
    detach(socket: WebSocket, userId: string | undefined, channels: Iterable<string>): void {
      if (userId) removeFrom(socketsByUser, userId, socket);
      for (const channel of channels) removeFrom(socketsByChannel, channel, socket);
    },

    /** Channels with at least one subscribed socket in this process (publishers compute only these). */
    activeChannels(): string[] {
      return [...socketsByChannel.keys()];
    },

    /** Sockets of this process subscribed to a channel. */
    subscriberCount(channel: string): number {
      return socketsByChannel.get(channel)?.size ?? 0;
    },

    connectionCount(userId: string): number {
      return socketsByUser.get(userId)?.size ?? 0;
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
