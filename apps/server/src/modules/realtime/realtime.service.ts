import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  CHANNELS,
  ZUserMessageSchema,
  type ChannelName,
  type ChannelPayload,
  type TChannelMessage,
  type TUserMessage,
} from '@solterm/contracts';
import type { Database } from '../../db/database';
import { createKeyedQueue } from '../../lib/keyed-queue';
import { createNotifyReassembler, splitForNotify } from './notify-chunks';

export { createChannelStream, type ChannelStream, type ChannelStreamDeps } from './channel-stream';

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

/**
 * What travels between processes: a message for a user, a message on a channel, or a revocation
 * of a user's sessions. Checked again on receipt: anyone with the database can NOTIFY.
 */
const ZEnvelopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), userId: z.string(), message: ZUserMessageSchema }),
  z.object({ kind: z.literal('channel'), channel: z.string(), data: z.unknown() }),
  z.object({ kind: z.literal('revoke'), userId: z.string(), sessionId: z.string().optional() }),
]);
type Envelope = z.infer<typeof ZEnvelopeSchema>;

/** A channel message, checked against the channel's schema and serialised. @throws on a bad payload. */
function channelText(channel: string, data: unknown): string {
  if (!CHANNELS.isChannel(channel)) throw new Error(`not a registered channel: ${channel}`);
  const message: TChannelMessage = { type: 'channel', channel, data: CHANNELS.parse(channel, data) };
  return JSON.stringify(message);
}

/**
 * Tracks open sockets by user and by subscribed channel. `publish` reaches one user's sockets in
 * every server process, `publishChannel` a channel's subscribers in every process, and
 * `revokeSessions` closes sockets there: through Postgres NOTIFY when the database is PostgreSQL,
 * in-process otherwise. `broadcast` reaches this process's subscribers only, for channels every
 * process computes itself (market ticks). Payloads are checked against the contracts' schemas
 * (channels.ts, ws-messages.ts). A socket whose session expired is closed, never sent to.
 */
export function createRealtimeHub(deps: { database: Database; log: FastifyBaseLogger; now: () => Date }) {
  const socketsByUser = new Map<string, Set<WebSocket>>();
  const socketsByChannel = new Map<string, Set<WebSocket>>();
  const sessionOf = new Map<WebSocket, SocketSession>();
  const crossProcess = deps.database.kind === 'postgres';
  const reassembler = createNotifyReassembler({ now: deps.now });
  /** Cross-process envelopes, sent in order per user and per channel (see fanOut). */
  const inOrder = createKeyedQueue();
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

  /**
   * Sends one text message to many sockets, encoded once: ws frames a Buffer without copying it,
   * so each socket only adds its few header bytes instead of encoding the text again.
   */
  function sendToAll(sockets: Iterable<WebSocket> | undefined, text: string): number {
    let sent = 0;
    let payload: Buffer | undefined;
    for (const socket of sockets ?? []) {
      if (socket.readyState !== socket.OPEN) continue;
      payload ??= Buffer.from(text);
      socket.send(payload, { binary: false });
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

  function deliverLocally(envelope: Envelope): void {
    if (envelope.kind === 'channel') {
      sendToAll(socketsByChannel.get(envelope.channel), channelText(envelope.channel, envelope.data));
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
    sendToAll(live, JSON.stringify(envelope.message));
  }

  async function fanOut(envelope: Envelope): Promise<void> {
    if (!crossProcess) {
      deliverLocally(envelope);
      return;
    }
    // A user's (or a channel's) envelopes are sent one after another: each NOTIFY is a statement of
    // its own, on whichever pooled connection is free, and listeners get them in commit order, so two
    // sent at once could arrive swapped (a backtest's progress going back from 93 % to 46 %).
    const key = envelope.kind === 'channel' ? `channel:${envelope.channel}` : `user:${envelope.userId}`;
    await inOrder.run(key, async () => {
      // The pieces of a split text in order too (the reassembler copes otherwise).
      for (const payload of splitForNotify(JSON.stringify(envelope))) {
        await deps.database.notify(NOTIFY_CHANNEL, payload);
      }
    });
  }

  function onNotification(payload: string): void {
    try {
      const text = reassembler.accept(payload);
      if (text !== undefined) deliverLocally(ZEnvelopeSchema.parse(JSON.parse(text)));
    } catch (error) {
      deps.log.warn({ err: error }, 'dropped a malformed realtime notification');
    }
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
      stopListening = await deps.database.listen(NOTIFY_CHANNEL, onNotification);
    },

    async stop(): Promise<void> {
      clearInterval(sweepTimer);
      await stopListening?.();
    },

    /**
     * Sends a message to every live-session socket of one user, in every server process.
     * @throws ZodError when the message is not a valid user message.
     */
    async publish(userId: string, message: TUserMessage): Promise<void> {
      await fanOut({ kind: 'message', userId, message: ZUserMessageSchema.parse(message) });
    },

    /**
     * Sends a message on a channel to its subscribers in every server process.
     * @throws ZodError when `data` is not a payload of the channel.
     */
    async publishChannel<C extends ChannelName>(channel: C, data: ChannelPayload<C>): Promise<void> {
      channelText(channel, data);
      await fanOut({ kind: 'channel', channel, data });
    },

    /** Closes (4401) the sockets of one session, or of every session of a user, in every process. */
    async revokeSessions(revocation: SessionRevocation): Promise<void> {
      await fanOut({ kind: 'revoke', userId: revocation.userId, sessionId: revocation.sessionId });
    },

    /** Closes (4401) this process's sockets whose session has expired; also run on a timer. */
    closeExpiredSessions,

    /**
     * Sends a message on a channel to this process's subscribers only (channels every process
     * computes itself). Serialises once. Returns the count.
     * @throws ZodError when `data` is not a payload of the channel.
     */
    broadcast<C extends ChannelName>(channel: C, data: ChannelPayload<C>): number {
      const text = channelText(channel, data);
      return sendToAll(socketsByChannel.get(channel), text);
    },

    /** Binds a socket to the session it authenticated with (replacing an earlier one). */
    bindSession(socket: WebSocket, session: SocketSession): void {
      const previous = sessionOf.get(socket);
      if (previous) removeFrom(socketsByUser, previous.userId, socket);
      sessionOf.set(socket, session);
      addTo(socketsByUser, session.userId, socket);
    },

    /** The user a socket is authenticated as, if any. */
    userOf(socket: WebSocket): string | undefined {
      return sessionOf.get(socket)?.userId;
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

    /** Registered channels with at least one subscribed socket in this process (publishers compute only these). */
    activeChannels(): ChannelName[] {
      return [...socketsByChannel.keys()].filter((channel) => CHANNELS.isChannel(channel));
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
