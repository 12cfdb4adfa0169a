import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { App } from '../../src/app';

export type ServerMessage = { type: string } & Record<string, unknown>;

/** How long to wait for a message that should come; a guard against hangs, not a delay. */
const WAIT_MS = 10_000;

/** Starts the app on an ephemeral port and returns its ws:// URL for /ws. */
export async function listen(app: App): Promise<string> {
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/ws`;
}

/** A `ws` client that queues what the server sends, so a test can await messages in order. */
export class TestSocket {
  private readonly queue: ServerMessage[] = [];
  private waiter: ((message: ServerMessage) => void) | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as ServerMessage;
      if (this.waiter) {
        const resolve = this.waiter;
        this.waiter = undefined;
        resolve(message);
      } else {
        this.queue.push(message);
      }
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  static async open(url: string): Promise<TestSocket> {
    const socket = new WebSocket(url);
    const client = new TestSocket(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Opens a socket and authenticates it; resolves after auth_success. */
  static async authenticated(url: string, token: string): Promise<TestSocket> {
    const client = await TestSocket.open(url);
    client.send({ type: 'auth', token });
    const reply = await client.next();
    if (reply.type !== 'auth_success') throw new Error(`auth failed: ${JSON.stringify(reply)}`);
    return client;
  }

  /** Messages that arrived and were not read yet (to prove nothing came before a close). */
  unread(): ServerMessage[] {
    return [...this.queue];
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message from the server. */
  next(): Promise<ServerMessage> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.waiter) throw new Error('already waiting for a message');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`no message within ${WAIT_MS} ms`));
      }, WAIT_MS);
      this.waiter = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
    });
  }

  /**
   * Round-trips a ping and returns every message that arrived before its pong. The server answers in
   * order, so anything already sent to this socket is in the list: a way to prove that nothing came.
   */
  async drain(): Promise<ServerMessage[]> {
    const marker = Math.floor(Math.random() * 1e12);
    this.send({ type: 'ping', timestamp: marker });
    const received: ServerMessage[] = [];
    for (;;) {
      const message = await this.next();
      if (message.type === 'pong' && message.timestamp === marker) return received;
      received.push(message);
    }
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    await this.closed;
  }
}
