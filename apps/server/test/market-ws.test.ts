import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  candlesChannel,
  priceChannel,
  PRICES_CHANNEL,
  ZCandleTickSchema,
  ZPricesTickSchema,
} from '@solterm/contracts';
import { call, createClock, createTestApp, type TestApp } from './helpers/test-app';
import { listen, TestSocket, type ServerMessage } from './helpers/ws-client';

const NOW = new Date('2026-02-10T09:00:20Z');

describe('market channels on /ws', () => {
  let app: TestApp;
  let url: string;
  const sockets: TestSocket[] = [];

  async function subscribed(...channels: string[]): Promise<TestSocket> {
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    for (const channel of channels) {
      socket.send({ type: 'subscribe', channel });
      expect(await socket.next()).toEqual({ type: 'subscribed', channel });
    }
    return socket;
  }

  beforeAll(async () => {
    // The stream's own timer is set to an hour: the tests tick it by hand against a manual clock.
    app = await createTestApp({
      env: { MARKET_TICK_MS: '3600000', MARKET_SEED: 'ws-test' },
      clock: createClock(NOW),
    });
    url = await listen(app);
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('pushes every token price and 24 h change on "prices"', async () => {
    const socket = await subscribed(PRICES_CHANNEL);

    expect(await app.market.stream.tick()).toBe(1);

    const message = await socket.next();
    expect(message).toMatchObject({ type: 'channel', channel: 'prices' });
    const data = ZPricesTickSchema.parse(message.data);
    expect(Object.keys(data.prices).length).toBeGreaterThanOrEqual(40);
    const cards = await call<Record<string, { price: number; change_24h: number }>>(app, {
      method: 'GET',
      url: '/api/market/dashboard-coins',
    });
    expect(data.prices.SOL).toEqual(cards.body.data.sol);
    expect(typeof data.prices.SOL!.price).toBe('number');
    // Keyed by each token's own symbol case, unlike the dashboard cards' lower-case keys.
    expect(data.prices).toHaveProperty('jitoSOL');
    expect(data.prices).not.toHaveProperty('sol');
    expect(data.timestamp).toBe(NOW.toISOString());
  });

  it('pushes one token on "price:<SYMBOL>", whatever case the client wrote', async () => {
    const socket = await subscribed(priceChannel('bonk'), 'price:wif');
    await app.market.stream.tick();
    const received = [await socket.next(), await socket.next()];
    const bySymbol = Object.fromEntries(
      received.map((message) => [(message.data as { symbol: string }).symbol, message]),
    );
    expect(bySymbol.BONK).toMatchObject({
      channel: 'price:BONK',
      data: {
        symbol: 'BONK',
        price: expect.any(Number),
        change_24h: expect.any(Number),
        volume_24h: expect.any(Number),
      },
    });
    expect(bySymbol.WIF).toMatchObject({ channel: 'price:wif' });
  });

  it('pushes the forming candle every tick and the closed one when its minute ends', async () => {
    const channel = candlesChannel('SOL/USDC', '1M');
    expect(channel).toBe('candles:SOL/USDC:1');
    const socket = await subscribed(channel);

    await app.market.stream.tick();
    const forming = ZCandleTickSchema.parse((await socket.next()).data);
    expect(forming).toMatchObject({ pair: 'SOL/USDC', interval: '1M', closed: false });
    expect(forming.candle.time).toBe(Math.floor(NOW.getTime() / 60_000) * 60);

    // When the minute ends
    app.clock.advance(60_000);
    await app.market.stream.tick();
    const closed = ZCandleTickSchema.parse((await socket.next()).data);
    const next = ZCandleTickSchema.parse((await socket.next()).data);
    app.clock.advance(-60_000);

    // Then the finished candle comes once more, closed, and matches the chart; then the new one forms
    expect(closed.closed).toBe(true);
    expect(closed.candle.time).toBe(forming.candle.time);
    expect(next.closed).toBe(false);
    expect(next.candle.time).toBe(forming.candle.time + 60);
    expect(next.candle.open).toBe(closed.candle.close);
  });

  it('accepts interval labels and service values alike (1S, 60)', async () => {
    const socket = await subscribed('candles:BTC/SOL:1S', 'candles:ETH/USDC:60');
    await app.market.stream.tick();
    const intervals = [await socket.next(), await socket.next()].map(
      (message) => (message.data as { interval: string }).interval,
    );
    expect(intervals.sort()).toEqual(['1H', '1S']);
  });

  it('computes only channels with subscribers', async () => {
    expect(await app.market.stream.tick()).toBe(0);
    const socket = await subscribed(priceChannel('SOL'));
    expect(await app.market.stream.tick()).toBe(1);
    await socket.next();
    // A subscriber of one channel receives nothing of the others.
    expect(await socket.drain()).toEqual([]);
  });

  it('tells the subscribers of an unknown token once, then leaves the channel alone', async () => {
    const socket = await subscribed('price:NOPE');
    await app.market.stream.tick();
    expect(await socket.next()).toMatchObject({
      type: 'channel',
      channel: 'price:NOPE',
      data: { code: 'MARKET__TOKEN_NOT_FOUND' },
    });
    await app.market.stream.tick();
    const later: ServerMessage[] = await socket.drain();
    expect(later).toEqual([]);
  });
});
