/**
 * What one PubSub connection may cost the server: frames in per window, notifications queued
 * unread. A fake socket stands in for the WebSocket (the real ones are exercised in pubsub.test).
 */
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { servePubSubSocket, type PubSubEndpoint } from './pubsub-transport';
import type { PubSubConnectOptions } from './rpc/pubsub';

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  closed: { code: number; reason: string } | undefined;
  terminated = false;
  send(text: string) {
    this.sent.push(text);
  }
  close(code: number, reason: string) {
    this.closed = { code, reason };
  }
  terminate() {
    this.terminated = true;
  }
  ping() {}
}

function serve(limits = { maxFramesPerWindow: 3, windowMs: 1000, maxBufferedBytes: 100 }) {
  const socket = new FakeSocket();
  const handled: string[] = [];
  let push: (text: string) => void = () => undefined;
  let options: PubSubConnectOptions = {};
  const endpoint: PubSubEndpoint = {
    connect(send, connectOptions = {}) {
      push = send;
      options = connectOptions;
      return { handle: (text) => handled.push(text), close: () => undefined };
    },
  };
  servePubSubSocket(socket as unknown as WebSocket, endpoint, '203.0.113.7', limits);
  return { socket, handled, push: (text: string) => push(text), options: () => options };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('servePubSubSocket limits', () => {
  it('closes a connection that sends more frames than its window allows, and handles none past it', () => {
    const { socket, handled } = serve();
    for (let index = 0; index < 6; index += 1) socket.emit('message', Buffer.from(`frame ${index}`), false);
    expect(handled).toEqual(['frame 0', 'frame 1', 'frame 2']);
    expect(socket.closed).toEqual({ code: 1008, reason: 'too many PubSub requests' });
  });

  it('counts afresh in the next window', () => {
    const { socket, handled } = serve();
    for (let index = 0; index < 3; index += 1) socket.emit('message', Buffer.from('a'), false);
    vi.advanceTimersByTime(1000);
    for (let index = 0; index < 3; index += 1) socket.emit('message', Buffer.from('b'), false);
    expect(handled).toHaveLength(6);
    expect(socket.closed).toBeUndefined();
  });

  it('drops a client that leaves its notifications unread instead of queueing them without end', () => {
    const { socket, push } = serve();
    push('first');
    expect(socket.sent).toEqual(['first']);
    socket.bufferedAmount = 101;
    push('second');
    expect(socket.sent).toEqual(['first']);
    expect(socket.terminated).toBe(true);
  });

  it('names the client to the PubSub, and closes the socket (1008) when the PubSub ends the connection', () => {
    const { socket, options } = serve();
    expect(options().clientId).toBe('203.0.113.7');
    options().end!('PubSub notifications past the byte budget per commit');
    expect(socket.closed).toEqual({
      code: 1008,
      reason: 'PubSub notifications past the byte budget per commit',
    });
  });
});
