import {
  isUserMessageType,
  WS_MAX_RECONNECT_ATTEMPTS,
  WS_PATH,
  WS_RECONNECT_BASE_DELAY_MS,
  ZUserMessageSchema,
  type ChannelName,
  type TUserMessage,
  type TUserMessageOf,
  type UserMessageType,
} from '@solterm/contracts';
import { getStoredToken } from './storage-keys';

/*
 * The one real-time client of the web app (spec part 1 §4 "Real-time connection", part 2 §7):
 * - path /ws on the page's host, wss when the page is https;
 * - `{type:'auth', token}` once open when a session token exists; `auth_success` confirms;
 * - `{type:'ping', timestamp}` every 25 s; a ping left without a pong until the next one means the
 *   connection is dead, and it is treated as an unclean close;
 * - after an unclean close, reconnects with a 1 s delay doubling per attempt, at most 5 attempts;
 * - channel subscriptions (`{type:'subscribe', channel}`), re-sent after every reconnect; channel
 *   messages `{type:'channel', channel, data}` go to that channel's listeners;
 * - per-user messages (the types of the contracts' ZUserMessageSchema) go, checked against that
 *   schema, to their type's listeners; channel data is checked against its channel's schema by useChannel;
 * - the connection state is observable, so polling fallbacks run only while the socket is down.
 * The socket opens when something needs it (a retained shell or a channel listener) and closes a
 * moment after nothing does.
 */

/**
 * idle: not needed, no socket. connecting: first attempt in flight. open: live.
 * reconnecting: down after an unclean close, waiting for (or making) the next attempt.
 * failed: the reconnect attempts ran out; the next `reconnect()` (or a new listener) starts over.
 */
export type RealtimeState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'failed';

/** Per-user pushes (bot progress and status, spot order changes, …): the contracts' list. */
export type RealtimeEventType = UserMessageType;

/** The part of the browser WebSocket the client uses (a fake implements it in tests). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface WsClientOptions {
  /** Default: ws(s)://<page host>/ws. */
  url?: string | (() => string);
  /** Default: `new WebSocket(url)`. */
  createSocket?: (url: string) => WebSocketLike;
  /** Default: localStorage auth_token. */
  getToken?: () => string | null;
  /** Default 25 000 ms. */
  pingIntervalMs?: number;
  /** Default 5 (spec). */
  maxReconnectAttempts?: number;
  /** Default 1000 ms, doubling per attempt (spec). */
  reconnectBaseDelayMs?: number;
  /** How long the socket stays open after the last listener left. Default 2000 ms. */
  idleCloseMs?: number;
}

/** Close code the server uses for a refused token (apps/server realtime.routes.ts). */
const CLOSE_UNAUTHORIZED = 4401;
/** Close code this client uses when a ping went unanswered. */
const CLOSE_HEARTBEAT_TIMEOUT = 4000;
const CLOSE_NORMAL = 1000;
const OPEN = 1;

type Listener = (data: unknown) => void;
type UserMessageListener = (message: TUserMessage) => void;

function isUserMessageOf<T extends UserMessageType>(
  message: TUserMessage,
  type: T,
): message is TUserMessageOf<T> {
  return message.type === type;
}

/** The /ws URL of the page: same host, secure scheme on a secure page. */
export function getDefaultWsUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${WS_PATH}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Builds a client; the app uses the shared {@link realtime}, tests build their own with a fake socket. */
export function createWsClient(options: WsClientOptions = {}) {
  const resolveUrl = () =>
    typeof options.url === 'function' ? options.url() : (options.url ?? getDefaultWsUrl());
  const createSocket =
    options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as WebSocketLike);
  const getToken = options.getToken ?? getStoredToken;
  const pingIntervalMs = options.pingIntervalMs ?? 25_000;
  const maxAttempts = options.maxReconnectAttempts ?? WS_MAX_RECONNECT_ATTEMPTS;
  const baseDelayMs = options.reconnectBaseDelayMs ?? WS_RECONNECT_BASE_DELAY_MS;
  const idleCloseMs = options.idleCloseMs ?? 2000;

  const channelListeners = new Map<string, Set<Listener>>();
  const eventListeners = new Map<RealtimeEventType, Set<UserMessageListener>>();
  const stateListeners = new Set<() => void>();

  let state: RealtimeState = 'idle';
  let socket: WebSocketLike | null = null;
  let retainCount = 0;
  let reconnectAttempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let isAwaitingPong = false;
  /** A token the server refused: not sent again (market channels work without one). */
  let refusedToken: string | null = null;
  /** The user the server accepted the token of on the current connection (its `auth_success`). */
  let userId: string | null = null;

  function notifyState(): void {
    for (const listener of [...stateListeners]) listener();
  }

  function setState(next: RealtimeState): void {
    if (state === next) return;
    state = next;
    notifyState();
  }

  function setUserId(next: string | null): void {
    if (userId === next) return;
    userId = next;
    notifyState();
  }

  function isNeeded(): boolean {
    return retainCount > 0 || channelListeners.size > 0;
  }

  function send(message: object): void {
    if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(message));
  }

  function sendAuth(): void {
    const token = getToken();
    if (!token || token === refusedToken) return;
    send({ type: 'auth', token });
  }

  function stopPing(): void {
    if (pingTimer !== undefined) clearInterval(pingTimer);
    pingTimer = undefined;
    isAwaitingPong = false;
  }

  function startPing(): void {
    stopPing();
    pingTimer = setInterval(() => {
      if (isAwaitingPong) {
        // No pong since the last ping: the connection is dead even if the browser has not noticed.
        const dead = socket;
        detach(dead);
        dead?.close(CLOSE_HEARTBEAT_TIMEOUT, 'heartbeat timeout');
        onClosed({ code: CLOSE_HEARTBEAT_TIMEOUT, isDeliberate: false });
        return;
      }
      isAwaitingPong = true;
      send({ type: 'ping', timestamp: Date.now() });
    }, pingIntervalMs);
  }

  function detach(target: WebSocketLike | null): void {
    if (!target) return;
    target.onopen = null;
    target.onmessage = null;
    target.onclose = null;
    target.onerror = null;
    if (socket === target) socket = null;
  }

  function deliver<T>(listeners: Set<(data: T) => void> | undefined, data: T): void {
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(data);
      } catch (error) {
        // One broken listener must not starve the others (or the socket's message loop).
        console.error('realtime listener failed', error);
      }
    }
  }

  function onMessage(raw: unknown): void {
    let message: unknown;
    try {
      message = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (!isObject(message)) return;
    switch (message.type) {
      case 'channel':
        if (typeof message.channel === 'string') deliver(channelListeners.get(message.channel), message.data);
        return;
      case 'pong':
        isAwaitingPong = false;
        return;
      case 'auth_success':
        setUserId(typeof message.user_id === 'string' ? message.user_id : null);
        // Per-user channels asked for before the token was accepted were refused: ask again.
        for (const channel of channelListeners.keys()) send({ type: 'subscribe', channel });
        return;
      default: {
        if (!isUserMessageType(message.type)) return;
        const parsed = ZUserMessageSchema.safeParse(message);
        if (parsed.success) deliver(eventListeners.get(parsed.data.type), parsed.data);
        else console.warn(`realtime: dropped a malformed ${message.type} message`, parsed.error);
      }
    }
  }

  function connect(): void {
    if (socket || !isNeeded()) return;
    clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    setState(reconnectAttempts > 0 ? 'reconnecting' : 'connecting');
    let created: WebSocketLike;
    try {
      created = createSocket(resolveUrl());
    } catch {
      // An invalid URL or a blocked scheme: count it as a failed attempt.
      onClosed({ code: 1006, isDeliberate: false });
      return;
    }
    socket = created;
    created.onopen = () => {
      reconnectAttempts = 0;
      setUserId(null);
      setState('open');
      sendAuth();
      for (const channel of channelListeners.keys()) send({ type: 'subscribe', channel });
      startPing();
    };
    created.onmessage = (event) => onMessage(event.data);
    created.onerror = () => {
      // The close event follows and decides what happens next.
    };
    created.onclose = (event) => {
      detach(created);
      if (event.code === CLOSE_UNAUTHORIZED) refusedToken = getToken();
      onClosed({ code: event.code, isDeliberate: false });
    };
  }

  function onClosed({ code, isDeliberate }: { code: number; isDeliberate: boolean }): void {
    stopPing();
    setUserId(null);
    // "Unclean" here is any close this client did not ask for, except a normal closure (1000) the
    // server chose: a dropped network (1006), a server restart (1001), a dead heartbeat, a refused
    // token (reconnecting without it keeps the public market channels alive).
    const shouldReconnect = !isDeliberate && code !== CLOSE_NORMAL && isNeeded();
    if (!shouldReconnect) {
      setState(isNeeded() && !isDeliberate ? 'failed' : 'idle');
      return;
    }
    if (reconnectAttempts >= maxAttempts) {
      setState('failed');
      return;
    }
    const delay = baseDelayMs * 2 ** reconnectAttempts;
    reconnectAttempts += 1;
    setState('reconnecting');
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect();
    }, delay);
  }

  function closeDeliberately(): void {
    clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    const current = socket;
    detach(current);
    current?.close(CLOSE_NORMAL, 'not needed');
    reconnectAttempts = 0;
    onClosed({ code: CLOSE_NORMAL, isDeliberate: true });
  }

  function ensureConnected(): void {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    if (socket || reconnectTimer !== undefined) return;
    if (state === 'failed') reconnectAttempts = 0;
    connect();
  }

  function releaseIfIdle(): void {
    if (isNeeded() || idleTimer !== undefined) return;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (!isNeeded()) closeDeliberately();
    }, idleCloseMs);
  }

  return {
    /** Keeps the connection open (the signed-in shell) until the returned release is called. */
    retain(): () => void {
      retainCount += 1;
      ensureConnected();
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        retainCount -= 1;
        releaseIfIdle();
      };
    },

    /**
     * Listens to a channel; subscribes on the server for the first listener. Returns the unsubscribe.
     * The listener gets the raw message data: {@link useChannel} checks it against the channel's schema.
     */
    subscribe(channel: ChannelName, listener: Listener): () => void {
      let listeners = channelListeners.get(channel);
      if (!listeners) {
        listeners = new Set();
        channelListeners.set(channel, listeners);
        send({ type: 'subscribe', channel });
      }
      listeners.add(listener);
      ensureConnected();
      return () => {
        const current = channelListeners.get(channel);
        if (!current?.delete(listener) || current.size > 0) return;
        channelListeners.delete(channel);
        send({ type: 'unsubscribe', channel });
        releaseIfIdle();
      };
    },

    /** Listens to the per-user messages of one type (the whole message, checked against its schema). */
    on<T extends RealtimeEventType>(type: T, listener: (message: TUserMessageOf<T>) => void): () => void {
      let listeners = eventListeners.get(type);
      if (!listeners) {
        listeners = new Set();
        eventListeners.set(type, listeners);
      }
      const wrapped: UserMessageListener = (message) => {
        if (isUserMessageOf(message, type)) listener(message);
      };
      listeners.add(wrapped);
      return () => {
        listeners.delete(wrapped);
      };
    },

    /** Sends the current session token (after a sign-in); a no-op while down (sent on open). */
    authenticate(): void {
      refusedToken = null;
      sendAuth();
    },

    /** Starts over after the attempts ran out (or reconnects at once while waiting). */
    reconnect(): void {
      if (state === 'open' || state === 'connecting') return;
      reconnectAttempts = 0;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      if (socket) return;
      connect();
    },

    getState(): RealtimeState {
      return state;
    },

    /** True once the server accepted the token on the current connection. */
    isAuthenticated(): boolean {
      return userId !== null;
    },

    /** The user the current connection is authenticated as (per-user channels need it), or null. */
    getUserId(): string | null {
      return userId;
    },

    /** Listens to changes of the connection state and of the authenticated user. */
    onStateChange(listener: () => void): () => void {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },

    /** Closes now and forgets every listener (tests, teardown). */
    close(): void {
      channelListeners.clear();
      retainCount = 0;
      clearTimeout(idleTimer);
      idleTimer = undefined;
      closeDeliberately();
    },
  };
}

export type WsClient = ReturnType<typeof createWsClient>;
