import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { TChannelData, TServerMessage } from '@solterm/contracts';
import type { Database } from '../../db/database';

const NOTIFY_CHANNEL = 'solterm_realtime';
/** WebSocket close code for a refused, revoked or expired session (4000–4999 are application codes). */
export const WS_CLOSE_UNAUTHORIZED = 4401;
/** How often sockets of expired sessions are looked for and closed. */
const EXPIRY_SWEEP_MS = 15_000;

/** The session a socket authenticated with. */
export interface SocketSession {
  userId: string;
  sessionId: string;
  expiresAt: Date;
}

/** Which sessions to close: one session of a user, or (without sessionId) all of them. */
export interface SessionRevocation {
  userId: string;
  sessionId?: string;
}

/** What travels between processes: a message for a user, a revocation, or a channel message. */
type Envelope =
  | { kind: 'message'; userId: string; message: TServerMessage }
  | ({ kind: 'revoke' } & SessionRevocation)
  | { kind: 'channel'; channel: string; data: TChannelData };

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_BYTES = 7900;

/** Where a socket's frames can be written directly (its TCP connection, from the upgrade request). */
export interface FrameTransport {
  write(chunk: Buffer): boolean;
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
 * server process, and `revokeSessions` closes them there: through Postgres NOTIFY when the database
 * is PostgreSQL, in-process otherwise. A socket whose session expired is closed, never sent to.
 */
export function createRealtimeHub(deps: { database: Database; log: FastifyBaseLogger; now: () => Date }) {
  const socketsByUser = new Map<string, Set<WebSocket>>();
  const socketsByChannel = new Map<string, Set<WebSocket>>();
  const sessionOf = new Map<WebSocket, SocketSession>();
  const transportOf = new WeakMap<WebSocket, FrameTransport>();
  const crossProcess = deps.database.kind === 'postgres';
  let stopListening: (() => Promise<void>) | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

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
      const tcp = transportOf.get(socket);
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

  /** Stops a socket from acting for its session: forgotten as that user's at once, then closed. */
  function closeSession(socket: WebSocket, reason: string): void {
    const session = sessionOf.get(socket);
    if (session) removeFrom(socketsByUser, session.userId, socket);
    sessionOf.delete(socket);
    socket.close(WS_CLOSE_UNAUTHORIZED, reason);
  }

  function isExpired(session: SocketSession | undefined): boolean {
    return !session || session.expiresAt.getTime() <= deps.now().getTime();
  }

  function broadcastLocally(channel: string, data: TChannelData): number {
    const sockets = socketsByChannel.get(channel);
    if (!sockets) return 0;
    return sendFramed(sockets, JSON.stringify({ type: 'channel', channel, data } satisfies TServerMessage));
  }

  function deliverLocally(envelope: Envelope): void {
    if (envelope.kind === 'channel') {
      broadcastLocally(envelope.channel, envelope.data);
      return;
    }
    const sockets = [...(socketsByUser.get(envelope.userId) ?? [])];
    if (envelope.kind === 'revoke') {
      for (const socket of sockets) {
        const session = sessionOf.get(socket);
        if (!envelope.sessionId || session?.sessionId === envelope.sessionId) {
          closeSession(socket, 'Session revoked');
        }
      }
      return;
    }
    const live = sockets.filter((socket) => {
      if (!isExpired(sessionOf.get(socket))) return true;
      closeSession(socket, 'Session expired');
      return false;
    });
    sendRaw(live, JSON.stringify(envelope.message));
  }

  async function fanOut(envelope: Envelope): Promise<void> {
    if (!crossProcess) return deliverLocally(envelope);
    const payload = JSON.stringify(envelope);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
      throw new Error(
        `a realtime message of ${Buffer.byteLength(payload)} bytes is too large to cross processes`,
      );
    }
    await deps.database.notify(NOTIFY_CHANNEL, payload);
  }

  function closeExpiredSessions(): void {
    for (const [socket, session] of sessionOf) {
      if (isExpired(session)) closeSession(socket, 'Session expired');
    }
  }

  return {
    async start(): Promise<void> {
      sweepTimer = setInterval(closeExpiredSessions, EXPIRY_SWEEP_MS);
      sweepTimer.unref();
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
      clearInterval(sweepTimer);
      await stopListening?.();
    },

    /** Sends a message to every live-session socket of one user, in every server process. */
    async publish(userId: string, message: TServerMessage): Promise<void> {
      await fanOut({ kind: 'message', userId, message });
    },

    /** Closes (4401) the sockets of one session, or of every session of a user, in every process. */
    async revokeSessions(revocation: SessionRevocation): Promise<void> {
      await fanOut({ kind: 'revoke', userId: revocation.userId, sessionId: revocation.sessionId });
    },

    /** Closes (4401) this process's sockets whose session has expired; also run on a timer. */
    closeExpiredSessions,

    /**
     * Sends data to the sockets of this process subscribed to a channel (a publisher every process
     * runs for itself, like the market stream). Serialises and frames once. Returns the count.
     */
    broadcast: broadcastLocally,

    /**
     * Sends data to a channel's subscribers in every process (a publisher that runs in one process,
     * like a singleton job): through NOTIFY on PostgreSQL (under 8000 bytes), in-process otherwise.
     */
    async broadcastEverywhere(channel: string, data: TChannelData): Promise<void> {
      await fanOut({ kind: 'channel', channel, data });
    },

    /** Registers the connection a socket's frames may be written to directly (see sendFramed). */
    connect(socket: WebSocket, transport: FrameTransport): void {
      transportOf.set(socket, transport);
    },

    /** Binds a socket to the session it authenticated with (replacing an earlier one). */
    bindSession(socket: WebSocket, session: SocketSession): void {
      const previous = sessionOf.get(socket);
      if (previous) removeFrom(socketsByUser, previous.userId, socket);
      sessionOf.set(socket, session);
      addTo(socketsByUser, session.userId, socket);
    },

    /** Whether the socket authenticated with a live session. */
    isAuthenticated(socket: WebSocket): boolean {
      return !isExpired(sessionOf.get(socket));
    },

    subscribe(socket: WebSocket, channel: string): void {
      addTo(socketsByChannel, channel, socket);
    },

    unsubscribe(socket: WebSocket, channel: string): void {
      removeFrom(socketsByChannel, channel, socket);
    },

    /** Forgets a closed socket everywhere. */
    detach(socket: WebSocket, channels: Iterable<string>): void {
      const session = sessionOf.get(socket);
      if (session) removeFrom(socketsByUser, session.userId, socket);
      sessionOf.delete(socket);
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
