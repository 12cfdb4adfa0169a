import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { TServerMessage } from '@solterm/contracts';
import type { Database } from '../../db/database';

const NOTIFY_CHANNEL = 'solterm_realtime';

interface Envelope {
  userId: string;
  message: TServerMessage;
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
      return sendRaw(sockets, JSON.stringify({ type: 'channel', channel, data } satisfies TServerMessage));
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

    connectionCount(userId: string): number {
      return socketsByUser.get(userId)?.size ?? 0;
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
