import type { WebSocketLike } from '../lib/ws-client';
import { createWsClient, type WsClientOptions } from '../lib/ws-client';

/** A WebSocket the test drives by hand: open it, feed it messages, close it. */
export class FakeWebSocket implements WebSocketLike {
  readyState = 0;
  readonly sent: unknown[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closedWith: { code?: number; reason?: string } | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data));
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  /** The server accepted the connection. */
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  /** A message from the server. */
  receive(message: object): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  /** The connection closed (1006: dropped, unclean). */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '', wasClean: code !== 1006 } as CloseEvent);
  }

  /** Sent messages of one type. */
  sentOfType(type: string): Record<string, unknown>[] {
    return this.sent.filter(
      (message): message is Record<string, unknown> =>
        typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type,
    );
  }
}

/** A ws client on fake sockets; `sockets` lists every socket it created, newest last. */
export function createFakeRealtime(options: WsClientOptions = {}) {
  const sockets: FakeWebSocket[] = [];
  const client = createWsClient({
    url: 'ws://test.local/ws',
    getToken: () => null,
    ...options,
    createSocket: (url) => {
      const socket = new FakeWebSocket(url);
      sockets.push(socket);
      return socket;
    },
  });
  return {
    client,
    sockets,
    latest(): FakeWebSocket {
      const socket = sockets[sockets.length - 1];
      if (!socket) throw new Error('no socket was created');
      return socket;
    },
  };
}
