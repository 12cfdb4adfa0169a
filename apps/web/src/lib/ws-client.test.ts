import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeRealtime } from '../test/fake-websocket';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ws client', () => {
  it('opens on the first listener, authenticates with the stored token and subscribes', () => {
    const { client, sockets, latest } = createFakeRealtime({ getToken: () => 'jwt-1' });
    expect(sockets).toHaveLength(0);
    expect(client.getState()).toBe('idle');

    const onPrices = vi.fn();
    client.subscribe('prices', onPrices);
    expect(client.getState()).toBe('connecting');
    latest().open();

    expect(client.getState()).toBe('open');
    expect(latest().sent).toEqual([
      { type: 'auth', token: 'jwt-1' },
      { type: 'subscribe', channel: 'prices' },
    ]);
    latest().receive({ type: 'auth_success', user_id: 'u1' });
    expect(client.isAuthenticated()).toBe(true);

    latest().receive({ type: 'channel', channel: 'prices', data: { btc: 1 } });
    latest().receive({ type: 'channel', channel: 'other', data: { x: 1 } });
    expect(onPrices).toHaveBeenCalledTimes(1);
    expect(onPrices).toHaveBeenCalledWith({ btc: 1 });
  });

  it('asks for its channels again once the token is accepted: a per-user channel is refused before', () => {
    const { client, latest } = createFakeRealtime({ getToken: () => 'jwt-1' });
    client.subscribe('spot-positions:u1', vi.fn());
    latest().open();
    expect(latest().sentOfType('subscribe')).toHaveLength(1);
    latest().receive({ type: 'auth_success', user_id: 'u1' });
    expect(latest().sentOfType('subscribe')).toEqual([
      { type: 'subscribe', channel: 'spot-positions:u1' },
      { type: 'subscribe', channel: 'spot-positions:u1' },
    ]);
  });

  it('sends no auth message without a session', () => {
    const { client, latest } = createFakeRealtime();
    client.retain();
    latest().open();
    expect(latest().sentOfType('auth')).toEqual([]);
  });

  it('builds a wss URL on a secure page and ws otherwise', async () => {
    const { getDefaultWsUrl } = await import('./ws-client');
    expect(getDefaultWsUrl()).toBe(`ws://${window.location.host}/ws`);
    expect(getDefaultWsUrl({ protocol: 'https:', host: 'solterm.example:8443' })).toBe(
      'wss://solterm.example:8443/ws',
    );
    expect(getDefaultWsUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/ws');
  });

  it('subscribes each channel once and unsubscribes when the last listener leaves', () => {
    const { client, latest } = createFakeRealtime();
    const first = client.subscribe('candles:SOL/USDC:15', vi.fn());
    const second = client.subscribe('candles:SOL/USDC:15', vi.fn());
    latest().open();
    expect(latest().sentOfType('subscribe')).toHaveLength(1);

    first();
    expect(latest().sentOfType('unsubscribe')).toHaveLength(0);
    second();
    expect(latest().sentOfType('unsubscribe')).toEqual([
      { type: 'unsubscribe', channel: 'candles:SOL/USDC:15' },
    ]);
  });

  it('delivers bot_timing_update and bot_status_change to their listeners, checked against the contracts', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client, latest } = createFakeRealtime();
    const onTiming = vi.fn();
    const onStatus = vi.fn();
    client.on('bot_timing_update', onTiming);
    client.on('bot_status_change', onStatus);
    client.retain();
    latest().open();
    const status = {
      type: 'bot_status_change',
      message_type: 'bot_status_change',
      data: { bot_id: 'b1', status: 'running', message: 'Bot started' },
    };
    latest().receive(status);
    const timing = {
      bot_id: 'b1',
      current_task: null,
      estimated_completion: null,
      total_trades: 2,
      total_pnl: '1.5',
      progress_percentage: 10,
      started_at: null,
    };
    latest().receive({ type: 'bot_timing_update', message_type: 'bot_timing_update', data: timing });
    // Not a bot_timing_update the contracts admit: dropped, never handed to a listener.
    latest().receive({
      type: 'bot_timing_update',
      message_type: 'bot_timing_update',
      data: { bot_id: 'b1' },
    });
    expect(onStatus).toHaveBeenCalledWith(status);
    expect(onTiming).toHaveBeenCalledTimes(1);
    expect(onTiming).toHaveBeenCalledWith(expect.objectContaining({ data: timing }));
  });

  it('pings with a timestamp and treats a ping left unanswered as a dead connection', () => {
    vi.setSystemTime(Date.UTC(2030, 0, 1));
    const { client, sockets, latest } = createFakeRealtime({ pingIntervalMs: 25_000 });
    client.retain();
    latest().open();

    vi.advanceTimersByTime(25_000);
    expect(latest().sentOfType('ping')).toEqual([
      { type: 'ping', timestamp: Date.UTC(2030, 0, 1, 0, 0, 25) },
    ]);
    latest().receive({ type: 'pong', timestamp: 1 });

    vi.advanceTimersByTime(25_000);
    expect(latest().sentOfType('ping')).toHaveLength(2);
    // No pong this time: at the next ping the socket is closed and a reconnect is scheduled.
    vi.advanceTimersByTime(25_000);
    expect(sockets[0]!.closedWith?.code).toBe(4000);
    expect(client.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
  });

  it('reconnects after an unclean close with 1 s, 2 s, 4 s, 8 s, 16 s delays, then gives up', () => {
    const { client, sockets, latest } = createFakeRealtime();
    client.subscribe('prices', vi.fn());
    latest().open();
    latest().drop();
    expect(client.getState()).toBe('reconnecting');

    const delays = [1000, 2000, 4000, 8000, 16000];
    for (const [index, delay] of delays.entries()) {
      vi.advanceTimersByTime(delay - 1);
      expect(sockets, `attempt ${index + 1} not before ${delay} ms`).toHaveLength(index + 1);
      vi.advanceTimersByTime(1);
      expect(sockets, `attempt ${index + 1} after ${delay} ms`).toHaveLength(index + 2);
      latest().drop();
    }
    expect(client.getState()).toBe('failed');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(6);

    // A manual reconnect (the browser came back online) starts over.
    client.reconnect();
    expect(sockets).toHaveLength(7);
  });

  it('resets the backoff after a successful reconnect and re-subscribes every channel', () => {
    const { client, sockets, latest } = createFakeRealtime({ getToken: () => 'jwt-2' });
    client.subscribe('prices', vi.fn());
    client.subscribe('candles:BONK/SOL:60', vi.fn());
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(1000);
    latest().drop();
    vi.advanceTimersByTime(2000);
    expect(sockets).toHaveLength(3);
    latest().open();
    expect(client.getState()).toBe('open');
    expect(latest().sent).toEqual([
      { type: 'auth', token: 'jwt-2' },
      { type: 'subscribe', channel: 'prices' },
      { type: 'subscribe', channel: 'candles:BONK/SOL:60' },
    ]);

    latest().drop();
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(4);
  });

  it('does not reconnect after a normal closure and closes when nothing needs it', () => {
    const { client, sockets, latest } = createFakeRealtime({ idleCloseMs: 2000 });
    const release = client.retain();
    latest().open();
    release();
    expect(client.getState()).toBe('open');
    vi.advanceTimersByTime(2000);
    expect(latest().closedWith?.code).toBe(1000);
    expect(client.getState()).toBe('idle');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('keeps the socket when a listener returns within the idle grace period', () => {
    const { client, sockets, latest } = createFakeRealtime({ idleCloseMs: 2000 });
    const release = client.retain();
    latest().open();
    release();
    vi.advanceTimersByTime(500);
    client.retain();
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(1);
    expect(client.getState()).toBe('open');
  });

  it('drops a refused token and reconnects without it', () => {
    const { client, sockets, latest } = createFakeRealtime({ getToken: () => 'bad-token' });
    client.subscribe('prices', vi.fn());
    latest().open();
    expect(latest().sentOfType('auth')).toHaveLength(1);
    latest().drop(4401);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    latest().open();
    expect(latest().sentOfType('auth')).toHaveLength(0);
    expect(latest().sentOfType('subscribe')).toHaveLength(1);
  });

  it('reports state changes to observers', () => {
    const { client, latest } = createFakeRealtime();
    const states: string[] = [];
    client.onStateChange(() => states.push(client.getState()));
    client.retain();
    latest().open();
    latest().drop();
    expect(states).toEqual(['connecting', 'open', 'reconnecting']);
  });

  it('ignores malformed messages and survives a throwing listener', () => {
    const { client, latest } = createFakeRealtime();
    const good = vi.fn();
    const errorSpy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    client.subscribe('prices', () => {
      throw new Error('boom');
    });
    client.subscribe('prices', good);
    latest().open();
    latest().onmessage?.(new MessageEvent('message', { data: 'not json' }));
    latest().receive({ type: 'channel', channel: 'prices', data: 1 });
    expect(good).toHaveBeenCalledWith(1);
    errorSpy.mockRestore();
  });
});
