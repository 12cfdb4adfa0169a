import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
  type Context,
} from 'react';
import { CHANNELS, type ChannelName, type ChannelPayload, type TUserMessageOf } from '@solterm/contracts';
import { createWsClient, type RealtimeEventType, type RealtimeState, type WsClient } from './realtime-socket';

// The client itself lives in realtime-socket.ts (no React); this file is the app's instance and its hooks.
export {
  createWsClient,
  getDefaultWsUrl,
  type RealtimeEventType,
  type RealtimeState,
  type WebSocketLike,
  type WsClient,
  type WsClientOptions,
} from './realtime-socket';

/** A channel's payload checked against its schema; undefined (and a warning) when it is not one. */
function readChannelPayload<C extends ChannelName>(channel: C, data: unknown): ChannelPayload<C> | undefined {
  try {
    return CHANNELS.parse(channel, data);
  } catch (error) {
    console.warn(`realtime: dropped a malformed message on ${channel}`, error);
    return undefined;
  }
}

/** The app's real-time client. */
export const realtime: WsClient = createWsClient();

/** The client hooks use: the shared one, or a test's fake-socket client. */
export const RealtimeContext: Context<WsClient> = createContext<WsClient>(realtime);

export function useRealtimeClient(): WsClient {
  return useContext(RealtimeContext);
}

/** The connection state, re-rendering on change. */
export function useRealtimeState(): RealtimeState {
  const client = useRealtimeClient();
  return useSyncExternalStore(client.onStateChange, client.getState, client.getState);
}

/**
 * The user the open socket is authenticated as (null while down or not signed in): a per-user
 * channel is named with it, and its polling fallback runs while this is null.
 */
export function useRealtimeUserId(): string | null {
  const client = useRealtimeClient();
  return useSyncExternalStore(client.onStateChange, client.getUserId, client.getUserId);
}

/** True while the socket is open: polling fallbacks run only when this is false. */
export function useIsRealtimeLive(): boolean {
  return useRealtimeState() === 'open';
}

/**
 * Calls `onData` with every message of a channel while mounted (`null` subscribes to nothing): the
 * payload the contracts' registry gives the channel's name (or the channel's error), checked.
 * The latest `onData` is used without resubscribing.
 *
 * @example useChannel(spotBookChannel('SOL/USDC'), (book) => { if (!('error' in book)) show(book); });
 */
export function useChannel<C extends ChannelName>(
  channel: C | null,
  onData: (data: ChannelPayload<C>) => void,
): void {
  const client = useRealtimeClient();
  const handler = useRef(onData);
  useLayoutEffect(() => {
    handler.current = onData;
  });
  useEffect(() => {
    if (!channel) return;
    return client.subscribe(channel, (data) => {
      const payload = readChannelPayload(channel, data);
      if (payload !== undefined) handler.current(payload);
    });
  }, [client, channel]);
}

/** Calls `onMessage` with every per-user message of a type (bot updates, order_update…) while mounted. */
export function useRealtimeEvent<T extends RealtimeEventType>(
  type: T,
  onMessage: (message: TUserMessageOf<T>) => void,
): void {
  const client = useRealtimeClient();
  const handler = useRef(onMessage);
  useLayoutEffect(() => {
    handler.current = onMessage;
  });
  useEffect(() => client.on(type, (message) => handler.current(message)), [client, type]);
}

/**
 * Keeps the connection open while mounted (the signed-in shell), sends the token again when the
 * signed-in user changes, and starts over when the browser comes back online.
 */
export function useRealtimeConnection(userId: string | null): void {
  const client = useRealtimeClient();
  useEffect(() => client.retain(), [client]);
  useEffect(() => {
    if (userId) client.authenticate();
  }, [client, userId]);
  useEffect(() => {
    const onOnline = () => client.reconnect();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [client]);
}
