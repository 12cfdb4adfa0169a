import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  spotBookChannel,
  spotPositionsChannel,
  ZOrderBookSchema,
  ZPositionSchema,
  type TPriceTick,
  type TPricesTick,
  type TSpotOrder,
} from '@solterm/contracts';
import { openDatabase } from '../src/db/database';
import { spotOrders, spotTrades } from '../src/modules/trading/trading.tables';
import { WS_CLOSE_UNAUTHORIZED } from '../src/modules/realtime/realtime.routes';
import {
  bearer,
  call,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  type AuthData,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { listen, TestSocket } from './helpers/ws-client';

const DAY_MS = 86_400_000;

/** Signs in again with the same credentials: a second, independent session of the same user. */
async function login(app: TestApp, email: string, password: string): Promise<string> {
  const { status, body } = await call<AuthData>(app, {
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  if (status !== 200) throw new Error(`login failed: ${status}`);
  return body.data.token;
}

async function logout(app: TestApp, token: string): Promise<void> {
  const { status } = await call(app, { method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
  expect(status).toBe(200);
}

/** Asks for a reset link (read from the dev outbox) and uses it. */
async function resetPassword(app: TestApp, email: string): Promise<void> {
  await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  const outbox = await call<{ links: string[] }[]>(app, {
    method: 'GET',
    url: `/api/dev/outbox?to=${encodeURIComponent(email)}&limit=1`,
  });
  const token = new URL(outbox.body.data[0]!.links[0]!).searchParams.get('token');
  const { status } = await call(app, {
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token, new_password: 'a new password after reset' },
  });
  expect(status).toBe(200);
}

/** A spot order as the server sends it in `order_update`. */
const spotOrder = (id: string): TSpotOrder => ({
  id,
  symbol: 'SOL/USDC',
  order_type: 'Limit',
  side: 'Buy',
  quantity: 1.5,
  price: 150,
  stop_price: null,
  leverage: 1,
  status: 'Pending',
  created_at: '2026-02-10T09:00:00.000Z',
  updated_at: '2026-02-10T09:00:00.000Z',
  tx_hash: null,
  settlement_tx_hash: null,
  filled_quantity: 0,
  average_fill_price: null,
  receipt: null,
});

const orderUpdate = (id: string) => ({ type: 'order_update', data: spotOrder(id) }) as const;

const priceTick = (price: number): TPriceTick => ({
  symbol: 'SOL',
  price,
  change_24h: 1.25,
  volume_24h: null,
  timestamp: '2026-02-10T09:00:00.000Z',
});

/** A `prices` tick of `count` tokens: with 300 it is well over NOTIFY's 8000-byte limit. */
const pricesTick = (count: number): TPricesTick => ({
  timestamp: '2026-02-10T09:00:00.000Z',
  prices: Object.fromEntries(
    Array.from({ length: count }, (_, index) => [
      `TOKEN${index}é`,
      { price: 1 + index / 1000, change_24h: -2.5 },
    ]),
  ),
});

const statusMessage = (botId: string) =>
  ({
    type: 'bot_status_change',
    message_type: 'bot_status_change',
    data: { bot_id: botId, status: 'running', message: 'Bot started' },
  }) as const;

describe.each(databaseTargets())('WebSocket /ws on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  let url: string;
  const sockets: TestSocket[] = [];

  async function open(token?: string): Promise<TestSocket> {
    const socket = token ? await TestSocket.authenticated(url, token) : await TestSocket.open(url);
    sockets.push(socket);
    return socket;
  }

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({ database });
    url = await listen(app);
    // Only the tests publish on market channels here: the background jobs (market stream) stop.
    await app.scheduler.stop();
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('answers auth with a good token with auth_success and the user id', async () => {
    const { token, user } = await registerUser(app);
    const socket = await open();

    socket.send({ type: 'auth', token });

    expect(await socket.next()).toEqual({ type: 'auth_success', user_id: user.id });
    await vi.waitFor(() => expect(app.hub.connectionCount(user.id)).toBe(1));
  });

  it('answers ping with pong, echoing the timestamp', async () => {
    const socket = await open();

    socket.send({ type: 'ping', timestamp: 1234 });
    const echoed = await socket.next();
    socket.send({ type: 'ping' });
    const stamped = await socket.next();

    expect(echoed).toEqual({ type: 'pong', timestamp: 1234 });
    expect(stamped).toEqual({ type: 'pong', timestamp: expect.any(Number) });
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['a token with alg none', `${Buffer.from('{"alg":"none"}').toString('base64url')}.e30.`],
  ])('answers auth with %s with an error, then closes with 4401', async (_name, token) => {
    const socket = await open();

    socket.send({ type: 'auth', token });

    expect(await socket.next()).toEqual({ type: 'error', error: 'Invalid or expired token' });
    expect(await socket.closed).toEqual({ code: WS_CLOSE_UNAUTHORIZED, reason: 'Invalid token' });
  });

  it('refuses a revoked token', async () => {
    const { token } = await registerUser(app);
    await app.server.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    const socket = await open();

    socket.send({ type: 'auth', token });

    expect((await socket.next()).type).toBe('error');
    expect((await socket.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  describe('revocation', () => {
    it("logout closes that session's sockets with 4401, and only that session's", async () => {
      // Given one user signed in twice, with a socket on each session
      const { token, email, password, user } = await registerUser(app);
      const otherToken = await login(app, email, password);
      const revoked = await open(token);
      const kept = await open(otherToken);

      // When the first session logs out
      await logout(app, token);

      // Then its socket is closed as if its token were bad, and receives nothing more
      expect(await revoked.closed).toEqual({ code: WS_CLOSE_UNAUTHORIZED, reason: 'Session revoked' });
      await app.hub.publish(user.id, orderUpdate('after-logout'));
      expect(revoked.unread()).toEqual([]);
      expect(await kept.next()).toEqual(orderUpdate('after-logout'));
    });

    it('a password reset closes every socket of the user', async () => {
      const { token, email, password, user } = await registerUser(app);
      const first = await open(token);
      const second = await open(await login(app, email, password));
      const bystander = await open((await registerUser(app)).token);

      await resetPassword(app, email);

      expect((await first.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect((await second.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect(app.hub.connectionCount(user.id)).toBe(0);
      expect(await bystander.drain()).toEqual([]);
    });

    it("an expired session's socket is closed instead of sent the user's messages", async () => {
      const { token, user } = await registerUser(app);
      const socket = await open(token);
      app.clock.advance(DAY_MS + 1000);

      await app.hub.publish(user.id, orderUpdate('after-expiry'));

      expect(await socket.closed).toEqual({ code: WS_CLOSE_UNAUTHORIZED, reason: 'Session expired' });
      expect(socket.unread()).toEqual([]);
    });

    it("the expiry sweep closes an expired session's socket even when nothing is sent to it", async () => {
      const { token } = await registerUser(app);
      const socket = await open(token);
      const alsoOld = await open((await registerUser(app)).token);
      app.clock.advance(DAY_MS - 1000);
      const live = await open((await registerUser(app)).token);
      app.clock.advance(2000);

      app.hub.closeExpiredSessions();

      expect((await socket.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect((await alsoOld.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect(await live.drain()).toEqual([]);
    });
  });

  it.each([
    ['invalid JSON', '{"type": "ping"'],
    ['an unknown message type', { type: 'launch_rockets' }],
    ['auth without a token', { type: 'auth' }],
    ['a JSON array', '[1, 2, 3]'],
  ])('answers %s with an error and keeps the socket open', async (_name, message) => {
    const socket = await open();

    socket.send(message);

    expect(await socket.next()).toEqual({ type: 'error', error: 'Invalid message' });
    socket.send({ type: 'ping', timestamp: 7 });
    expect(await socket.next()).toEqual({ type: 'pong', timestamp: 7 });
  });

  it('closes a socket that sends more than 64 KiB in one message', async () => {
    const socket = await open();

    socket.send('x'.repeat(65 * 1024));

    expect((await socket.closed).code).toBe(1009);
  });

  it("publish reaches every socket of that user and no one else's", async () => {
    const alice = await registerUser(app);
    const bob = await registerUser(app);
    const aliceTab1 = await open(alice.token);
    const aliceTab2 = await open(alice.token);
    const bobTab = await open(bob.token);
    const anonymous = await open();

    await app.hub.publish(alice.user.id, statusMessage('alice-bot'));
    // Notifications are delivered in order, so once Bob has his own message, Alice's was already routed.
    await app.hub.publish(bob.user.id, statusMessage('bob-bot'));

    expect(await aliceTab1.next()).toEqual(statusMessage('alice-bot'));
    expect(await aliceTab2.next()).toEqual(statusMessage('alice-bot'));
    expect(await bobTab.next()).toEqual(statusMessage('bob-bot'));
    expect(await bobTab.drain()).toEqual([]);
    expect(await anonymous.drain()).toEqual([]);
    expect(await aliceTab1.drain()).toEqual([]);
  });

  it('re-authenticating as another user moves the socket to that user', async () => {
    const alice = await registerUser(app);
    const bob = await registerUser(app);
    const socket = await open(alice.token);

    socket.send({ type: 'auth', token: bob.token });
    expect(await socket.next()).toEqual({ type: 'auth_success', user_id: bob.user.id });
    await app.hub.publish(alice.user.id, statusMessage('for-alice'));
    await app.hub.publish(bob.user.id, statusMessage('for-bob'));

    expect(await socket.next()).toEqual(statusMessage('for-bob'));
    expect(app.hub.connectionCount(alice.user.id)).toBe(0);
  });

  it('forgets a socket once it closes', async () => {
    const { token, user } = await registerUser(app);
    const socket = await open(token);
    expect(app.hub.connectionCount(user.id)).toBe(1);

    await socket.close();

    await vi.waitFor(() => expect(app.hub.connectionCount(user.id)).toBe(0));
    await expect(app.hub.publish(user.id, statusMessage('nobody-listens'))).resolves.toBeUndefined();
  });

  it('broadcast reaches the sockets subscribed to a channel until they unsubscribe', async () => {
    const subscriber = await open();
    const bystander = await open();
    const channel = 'price:SOL';

    subscriber.send({ type: 'subscribe', channel });
    expect(await subscriber.next()).toEqual({ type: 'subscribed', channel });
    const delivered = app.hub.broadcast(channel, priceTick(142.5));

    expect(delivered).toBe(1);
    expect(await subscriber.next()).toEqual({ type: 'channel', channel, data: priceTick(142.5) });
    expect(await bystander.drain()).toEqual([]);

    subscriber.send({ type: 'unsubscribe', channel });
    expect(await subscriber.next()).toEqual({ type: 'unsubscribed', channel });
    expect(app.hub.broadcast(channel, priceTick(143))).toBe(0);
    expect(await subscriber.drain()).toEqual([]);
  });

  it('publishChannel reaches the subscribers of a channel, however long the message', async () => {
    const subscriber = await open();
    subscriber.send({ type: 'subscribe', channel: 'prices' });
    expect(await subscriber.next()).toEqual({ type: 'subscribed', channel: 'prices' });

    await app.hub.publishChannel('prices', pricesTick(300));

    expect(await subscriber.next()).toEqual({ type: 'channel', channel: 'prices', data: pricesTick(300) });
  });

  it("refuses a payload that is not the channel's or a user message that is not one, sending nothing", async () => {
    const { token, user } = await registerUser(app);
    const socket = await open(token);
    socket.send({ type: 'subscribe', channel: 'price:SOL' });
    expect(await socket.next()).toEqual({ type: 'subscribed', channel: 'price:SOL' });
    const wrong = { pair: 'SOL/USDC' };

    // @ts-expect-error a price channel carries a TPriceTick: publishing anything else does not compile
    expect(() => app.hub.broadcast('price:SOL', wrong)).toThrow();
    // @ts-expect-error likewise across processes
    await expect(app.hub.publishChannel('price:SOL', { ...priceTick(1), price: 'one' })).rejects.toThrow();
    // @ts-expect-error only registered channels can be published on
    expect(() => app.hub.broadcast('bots', priceTick(1))).toThrow('not a registered channel');
    await expect(
      // @ts-expect-error order_update carries a whole TSpotOrder
      app.hub.publish(user.id, { type: 'order_update', data: { id: 'only-an-id' } }),
    ).rejects.toThrow();

    expect(await socket.drain()).toEqual([]);
  });

  it('refuses a channel nothing is ever published on, instead of answering "subscribed"', async () => {
    const socket = await open();
    for (const channel of ['bots', 'price:', 'futures-book', 'user:someone']) {
      socket.send({ type: 'subscribe', channel });
      expect(await socket.next()).toEqual({ type: 'error', error: `Unknown channel: ${channel}` });
      expect(app.hub.subscriberCount(channel)).toBe(0);
    }
    // A registered one still subscribes.
    socket.send({ type: 'subscribe', channel: 'prices' });
    expect(await socket.next()).toEqual({ type: 'subscribed', channel: 'prices' });
  });

  describe('spot channels', () => {
    /** A filled market buy of 2 SOL at 150 USDC, written as the trading service records one. */
    async function recordFill(userId: string): Promise<void> {
      const orderId = randomUUID();
      const txHash = `fill-${orderId}`;
      await app.database.db.insert(spotOrders).values({
        id: orderId,
        userId,
        walletAddress: 'wallet',
        symbol: 'SOL/USDC',
        baseMint: 'base',
        quoteMint: 'quote',
        orderType: 'Market',
        side: 'Buy',
        quantity: '2',
        baseAmount: '2000000000',
        status: 'Filled',
        txHash,
        filledQuantity: '2',
        averageFillPrice: '150',
      });
      await app.database.db.insert(spotTrades).values({
        orderId,
        userId,
        symbol: 'SOL/USDC',
        side: 'Buy',
        orderType: 'Market',
        quantity: '2',
        price: '150',
        txHash,
      });
    }

    async function subscribe(socket: TestSocket, channel: string): Promise<void> {
      socket.send({ type: 'subscribe', channel });
      expect(await socket.next()).toEqual({ type: 'subscribed', channel });
    }

    it("pushes a user's positions to that user only: no other socket may subscribe to them or receive them", async () => {
      // Given Alice with a fill, Bob signed in, and a socket that is not signed in
      const alice = await registerUser(app);
      const bob = await registerUser(app);
      await recordFill(alice.user.id);
      const aliceSocket = await open(alice.token);
      const bobSocket = await open(bob.token);
      const anonymous = await open();
      const aliceChannel = spotPositionsChannel(alice.user.id);

      // When Bob and the anonymous socket ask for Alice's positions
      bobSocket.send({ type: 'subscribe', channel: aliceChannel });
      anonymous.send({ type: 'subscribe', channel: aliceChannel });

      // Then both are refused
      const refusal = { type: 'error', error: `Not allowed to subscribe to ${aliceChannel}` };
      expect(await bobSocket.next()).toEqual(refusal);
      expect(await anonymous.next()).toEqual(refusal);

      // And once each user subscribes to their own channel, a tick sends each only their own positions
      await subscribe(aliceSocket, aliceChannel);
      await subscribe(bobSocket, spotPositionsChannel(bob.user.id));
      expect(await app.tradingStream.tick()).toBe(2);
      const forAlice = await aliceSocket.next();
      expect(forAlice).toMatchObject({ type: 'channel', channel: aliceChannel });
      const positions = ZPositionSchema.array().parse(forAlice.data);
      expect(positions).toMatchObject([{ symbol: 'SOL/USDC', size: 2, average_entry_price: 150 }]);
      expect(await bobSocket.next()).toEqual({
        type: 'channel',
        channel: spotPositionsChannel(bob.user.id),
        data: [],
      });
      expect(await bobSocket.drain()).toEqual([]);
      expect(await anonymous.drain()).toEqual([]);
    });

    it("a socket re-authenticated as another user stops receiving the first user's positions", async () => {
      const alice = await registerUser(app);
      const bob = await registerUser(app);
      await recordFill(alice.user.id);
      const socket = await open(alice.token);
      await subscribe(socket, spotPositionsChannel(alice.user.id));

      socket.send({ type: 'auth', token: bob.token });
      expect(await socket.next()).toEqual({ type: 'auth_success', user_id: bob.user.id });
      await app.tradingStream.tick();

      expect(await socket.drain()).toEqual([]);
      expect(app.hub.subscriberCount(spotPositionsChannel(alice.user.id))).toBe(0);
    });

    it("pushes the maker's ladder of a pair on spot-book to any socket, as GET /trading/orderbook answers", async () => {
      const socket = await open();
      const channel = spotBookChannel('SOL/USDC');
      await subscribe(socket, channel);

      expect(await app.tradingStream.tick()).toBe(1);

      const message = await socket.next();
      expect(message).toMatchObject({ type: 'channel', channel });
      const book = ZOrderBookSchema.parse(message.data);
      const answer = await call<unknown>(app, { method: 'GET', url: '/api/trading/orderbook/SOL%2FUSDC' });
      const { updated_at: _at, ...rest } = ZOrderBookSchema.parse(answer.body.data);
      expect(book).toMatchObject({ ...rest, symbol: 'SOL/USDC' });
      expect(book.buys.length).toBeGreaterThan(0);
    });

    it('tells the subscribers of an unknown pair once, then leaves the channel alone', async () => {
      const socket = await open();
      const channel = spotBookChannel('NOPE/USDC');
      await subscribe(socket, channel);

      expect(await app.tradingStream.tick()).toBe(0);
      expect(await socket.next()).toMatchObject({
        type: 'channel',
        channel,
        data: { error: expect.any(String), code: expect.any(String) },
      });
      await app.tradingStream.tick();
      expect(await socket.drain()).toEqual([]);
    });
  });

  it('limits a socket to 64 channels', async () => {
    const socket = await open();
    for (let index = 0; index < 64; index += 1)
      socket.send({ type: 'subscribe', channel: `price:TOKEN${index}` });
    // A price channel of an unknown token may answer its channel error once, between the acks.
    const nextReply = async () => {
      for (;;) {
        const message = await socket.next();
        if (message.type !== 'channel') return message;
      }
    };
    for (let index = 0; index < 64; index += 1) expect((await nextReply()).type).toBe('subscribed');

    socket.send({ type: 'subscribe', channel: 'price:one-too-many' });

    expect(await nextReply()).toEqual({ type: 'error', error: 'At most 64 channels per connection' });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'WebSocket fan-out across server processes (PostgreSQL)',
  () => {
    let shared: TestDatabase;
    let first: TestApp;
    let second: TestApp;
    let secondUrl: string;
    let firstUrl: string;
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      shared = await openTestDatabase('postgres');
      // Each app gets its own pool and LISTEN connection, as two processes would.
      const secondConnection = await openDatabase({ kind: 'postgres', url: shared.url! });
      first = await createTestApp({ database: shared });
      second = await createTestApp({
        database: { target: 'postgres', database: secondConnection, cleanup: () => secondConnection.close() },
      });
      firstUrl = await listen(first);
      secondUrl = await listen(second);
      await first.scheduler.stop();
      await second.scheduler.stop();
    });

    afterAll(async () => {
      await Promise.all(sockets.map((socket) => socket.close()));
      await first?.close();
      await second?.close();
      await second?.database.close();
      await shared?.cleanup();
    });

    it("a publish from one process reaches the user's sockets on every process, and only that user's", async () => {
      const alice = await registerUser(first);
      const bob = await registerUser(first);
      const aliceOnSecond = await TestSocket.authenticated(secondUrl, alice.token);
      const aliceOnFirst = await TestSocket.authenticated(firstUrl, alice.token);
      const bobOnSecond = await TestSocket.authenticated(secondUrl, bob.token);
      sockets.push(aliceOnSecond, aliceOnFirst, bobOnSecond);

      await first.hub.publish(alice.user.id, statusMessage('cross-process'));
      await first.hub.publish(bob.user.id, statusMessage('marker'));

      expect(await aliceOnSecond.next()).toEqual(statusMessage('cross-process'));
      expect(await aliceOnFirst.next()).toEqual(statusMessage('cross-process'));
      expect(await bobOnSecond.next()).toEqual(statusMessage('marker'));
      expect(await bobOnSecond.drain()).toEqual([]);
    });

    it("a logout on one process closes that session's sockets on every process", async () => {
      const dave = await registerUser(first);
      const onSecond = await TestSocket.authenticated(secondUrl, dave.token);
      const onFirst = await TestSocket.authenticated(firstUrl, dave.token);
      sockets.push(onSecond, onFirst);

      await logout(first, dave.token);

      expect((await onSecond.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect((await onFirst.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
    });

    it("a password reset on one process closes the user's sockets on every process", async () => {
      const erin = await registerUser(second);
      const onFirst = await TestSocket.authenticated(firstUrl, erin.token);
      const other = await TestSocket.authenticated(firstUrl, await login(second, erin.email, erin.password));
      sockets.push(onFirst, other);

      await resetPassword(second, erin.email);

      expect((await onFirst.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect((await other.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
    });

    it("a channel message published on one process reaches the channel's subscribers on every process", async () => {
      const onSecond = await TestSocket.open(secondUrl);
      const onFirst = await TestSocket.open(firstUrl);
      const elsewhere = await TestSocket.open(secondUrl);
      sockets.push(onSecond, onFirst, elsewhere);
      for (const [socket, channel] of [
        [onSecond, 'price:SOL'],
        [onFirst, 'price:SOL'],
        [elsewhere, 'candles:SOL/USDC:1'],
      ] as const) {
        socket.send({ type: 'subscribe', channel });
        expect(await socket.next()).toEqual({ type: 'subscribed', channel });
      }

      await first.hub.publishChannel('price:SOL', priceTick(150.25));

      const expected = { type: 'channel', channel: 'price:SOL', data: priceTick(150.25) };
      expect(await onSecond.next()).toEqual(expected);
      expect(await onFirst.next()).toEqual(expected);
      expect(await elsewhere.drain()).toEqual([]);
    });

    it("a channel message over NOTIFY's 8000-byte limit arrives whole on the other process", async () => {
      const subscriber = await TestSocket.open(secondUrl);
      sockets.push(subscriber);
      subscriber.send({ type: 'subscribe', channel: 'prices' });
      expect(await subscriber.next()).toEqual({ type: 'subscribed', channel: 'prices' });
      const tick = pricesTick(300);
      expect(Buffer.byteLength(JSON.stringify(tick))).toBeGreaterThan(8000);

      await first.hub.publishChannel('prices', tick);

      expect(await subscriber.next()).toEqual({ type: 'channel', channel: 'prices', data: tick });
    });

    it("a notification whose payload is not the channel's is dropped by the receiving process", async () => {
      const subscriber = await TestSocket.open(secondUrl);
      sockets.push(subscriber);
      subscriber.send({ type: 'subscribe', channel: 'price:SOL' });
      expect(await subscriber.next()).toEqual({ type: 'subscribed', channel: 'price:SOL' });

      // Written straight to the database, past the hub's own check.
      const forged = { kind: 'channel', channel: 'price:SOL', data: { price: 'free money' } };
      await shared.database.notify('solterm_realtime', JSON.stringify(forged));
      await first.hub.publishChannel('price:SOL', priceTick(151));

      expect(await subscriber.next()).toEqual({
        type: 'channel',
        channel: 'price:SOL',
        data: priceTick(151),
      });
      expect(await subscriber.drain()).toEqual([]);
    });

    it('delivers in the other direction too', async () => {
      const carol = await registerUser(second);
      const carolOnFirst = await TestSocket.authenticated(firstUrl, carol.token);
      sockets.push(carolOnFirst);

      await second.hub.publish(carol.user.id, statusMessage('from-second'));

      expect(await carolOnFirst.next()).toEqual(statusMessage('from-second'));
    });
  },
);
