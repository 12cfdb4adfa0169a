import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  futuresAccountChannel,
  futuresMarketChannel,
  USDC_MINT,
  ZFuturesAccountTickSchema,
  ZFuturesMarketStatsSchema,
  type TChartFills,
  type TFuturesAccount,
  type TFuturesDeposit,
  type TFuturesMarket,
  type TFuturesOrder,
  type TFuturesPair,
  type TFuturesPosition,
  type TFuturesTrade,
} from '@solterm/contracts';
import { priceOfUnits, snapshotOf } from '@solterm/engine';
import pino from 'pino';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';
import { listen, TestSocket, type ServerMessage } from './helpers/ws-client';
import { createPerpLedger } from '../src/modules/futures/perp-ledger';
import { PERP_MARKETS } from '../src/modules/futures/perp-markets';
import { makerQuotes } from '../src/modules/futures/perp-keeper';
import { MAKER_ACCOUNT } from '../src/modules/futures/perp-commands';

// The local perp venue end to end on the embedded cluster: USDC deposits signed by the wallet into
// the venue's vault (credited when they land), orders against the maker and each other, positions
// marked to the oracle, liquidation, funding, withdrawals from the vault to the owner only — and the
// vault's on-chain balance equal to what the venue owes throughout.

const NOW = new Date('2026-01-15T12:00:30Z');

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

describe('perpetual futures on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;
  let alice: User;
  let bob: User;

  const get = <T>(url: string, user?: User) =>
    call<T>(app, { method: 'GET', url, headers: user ? bearer(user.token) : {} });
  const post = <T>(url: string, user: User, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(user.token) });
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const { body } = await call<never>(app, {
      method: 'POST',
      url: '/rpc',
      payload: { jsonrpc: '2.0', id: 1, method, params },
    });
    return (body as unknown as { result: T }).result;
  };
  const usdcOf = async (owner: string) => {
    const { value } = await rpc<{
      value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[];
    }>('getTokenAccountsByOwner', [
      owner,
      { mint: USDC_MINT },
      { encoding: 'jsonParsed', commitment: 'confirmed' },
    ]);
    return value.reduce((sum, row) => sum + BigInt(row.account.data.parsed.info.tokenAmount.amount), 0n);
  };
  const venue = () => app.perpVenue.trading!;
  const keeper = () => app.perpKeeper!;
  const account = async (user: User) => (await get<TFuturesAccount>('/api/futures/account', user)).body.data;

  /** Moves a market's oracle by `bps` and lets the maker re-quote around it. */
  async function moveOracle(symbol: string, bps: bigint) {
    const perp = PERP_MARKETS.find((m) => m.symbol === symbol)!;
    const { ledger } = venue();
    const state = (await ledger.read()).market(symbol);
    const next = ((state.oracle * (10_000n + bps)) / 10_000n / perp.tick) * perp.tick;
    await venue().run({ k: 'oracle', prices: { [symbol]: next.toString() }, at: app.clock.now().getTime() });
    const inventory = (await ledger.read()).accounts.get(MAKER_ACCOUNT)?.positions.get(symbol)?.size ?? 0n;
    const { bids, asks } = makerQuotes(perp, next, inventory);
    await venue().run({ k: 'quote', market: symbol, bids, asks, at: app.clock.now().getTime() });
    return next;
  }

  /** A second ledger over the same database: what another process (or a restart) rebuilds. */
  function internals() {
    return {
      ledger: createPerpLedger({
        database: database.database,
        markets: PERP_MARKETS,
        log: pino({ level: 'silent' }),
      }),
    };
  }

  async function deposit(user: User, url: string, amount: number | string) {
    const built = await post<TFuturesDeposit>(url, user, { amount });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const executed = await post<{ transaction_hash: string }>(
      '/api/trading/execute-signed-transaction',
      user,
      {
        signed_transaction: user.wallet.signTransaction(built.body.data.unsigned_transaction),
      },
    );
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    return built.body.data;
  }

  async function vaultMatchesLedger() {
    await keeper().reconcile();
    const reconciliation = keeper().lastReconciliation()!;
    expect(reconciliation.vault).toBe(reconciliation.owed);
  }

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'futures', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    alice = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 1000 });
    bob = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 1000 });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('before the first oracle price: "Unable to get market price", and no order', async () => {
    const market = await get('/api/futures/market/SOL-PERP');
    expect(market.status).toBe(503);
    expect(market.body.error).toBe('Unable to get market price');
    await keeper().tick(true);
    expect((await get('/api/futures/market/SOL-PERP')).status).toBe(200);
  });

  it('lists the markets publicly, each priced by the oracle and quoted by the maker', async () => {
    const pairs = await get<TFuturesPair[]>('/api/futures/pairs');
    expect(pairs.status).toBe(200);
    expect(pairs.body.data.map((pair) => pair.symbol)).toEqual(
      expect.arrayContaining(['SOL-PERP', 'BTC-PERP', 'ETH-PERP']),
    );
    expect(pairs.body.data.length).toBeGreaterThanOrEqual(8);
    expect(pairs.body.data.every((pair) => pair.oracle_price !== null)).toBe(true);
    const sol = await get<TFuturesPair>('/api/futures/pairs/SOL%2FUSDC');
    expect(sol.body.data).toMatchObject({ symbol: 'SOL-PERP', max_leverage: 100, min_order_size: '0.001' });
    expect((await get('/api/futures/pairs/DOGE-PERP')).status).toBe(404);
    const market = await get<TFuturesMarket>('/api/futures/market/SOL-PERP');
    expect(market.status).toBe(200);
    const book = market.body.data.order_book;
    expect(book.bids).toHaveLength(10);
    expect(book.asks).toHaveLength(10);
    expect(Number(book.best_bid)).toBeLessThan(Number(book.best_ask));
    expect(Number(book.spread)).toBeGreaterThan(0);
    for (const path of ['funding', 'open-interest', 'volume']) {
      expect((await get(`/api/futures/${path}/BTC-PERP`)).status).toBe(200);
      expect((await get(`/api/futures/${path}/NOPE-PERP`)).status).toBe(404);
    }
  });

  it('needs a session for accounts and trading', async () => {
    for (const url of [
      '/api/futures/account',
      '/api/futures/orders',
      '/api/futures/positions',
      '/api/futures/trades',
    ]) {
      expect((await call(app, { method: 'GET', url })).status).toBe(401);
    }
    const order = { symbol: 'SOL-PERP', side: 'Long', order_type: 'Market', amount: 1, leverage: 10 };
    expect((await call(app, { method: 'POST', url: '/api/futures/order', payload: order })).status).toBe(401);
    expect(
      (await call(app, { method: 'POST', url: '/api/futures/account/initialize', payload: { amount: 5 } }))
        .status,
    ).toBe(401);
  });

  it('refuses deposits outside the rules, and moves nothing', async () => {
    expect((await account(alice)).initialized).toBe(false);
    const cases: [string, object, string][] = [
      ['/api/futures/collateral/deposit', { amount: 5 }, 'FUTURES__NOT_INITIALIZED'],
      ['/api/futures/account/initialize', { amount: 0.5 }, 'FUTURES__INITIAL_DEPOSIT_MINIMUM'],
      ['/api/futures/account/initialize', { amount: 0 }, 'FUTURES__DEPOSIT_INVALID'],
      ['/api/futures/account/initialize', { amount: -3 }, 'FUTURES__DEPOSIT_INVALID'],
      ['/api/futures/account/initialize', { amount: 'abc' }, 'FUTURES__DEPOSIT_INVALID'],
      ['/api/futures/account/initialize', { amount: 5000 }, 'FUTURES__INSUFFICIENT_USDC'],
    ];
    const held = await usdcOf(alice.wallet.address);
    for (const [url, payload, code] of cases) {
      const { status, body } = await post(url, alice, payload);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body.code).toBe(code);
    }
    const minimum = await post('/api/futures/account/initialize', alice, { amount: 0.5 });
    expect(minimum.body.error).toBe('Minimum deposit amount is 1 USDC');
    expect((await post('/api/futures/account/initialize', alice, { amount: 0 })).body.error).toBe(
      'Invalid deposit amount',
    );
    expect(await usdcOf(alice.wallet.address)).toBe(held);
  });

  it('initializes with 100 USDC: the wallet signs a transfer into the vault, credited when it lands', async () => {
    const held = await usdcOf(alice.wallet.address);
    const built = await deposit(alice, '/api/futures/account/initialize', 100);
    expect(built.vault_address).toBe((await account(alice)).vault_address);
    const after = await account(alice);
    expect(after).toMatchObject({
      initialized: true,
      collateral: '100.000000',
      equity: '100.000000',
      free_collateral: '100.000000',
    });
    expect(await usdcOf(alice.wallet.address)).toBe(held - 100_000_000n);
    expect((await post('/api/futures/account/initialize', alice, { amount: 5 })).body.code).toBe(
      'FUTURES__ALREADY_INITIALIZED',
    );
    await deposit(alice, '/api/futures/collateral/deposit', '0.01');
    expect((await account(alice)).collateral).toBe('100.010000');
    expect((await post('/api/futures/collateral/deposit', alice, { amount: 0.001 })).body.error).toBe(
      'Minimum deposit amount is 0.01 USDC',
    );
    await deposit(bob, '/api/futures/account/initialize', 200);
    await vaultMatchesLedger();
  });

  it("pushes a user's futures account to that user only, at once after an order; market statistics to anyone", async () => {
    const url = await listen(app);
    const idOf = async (user: User) => (await get<{ id: string }>('/api/user/profile', user)).body.data.id;
    const aliceChannel = futuresAccountChannel(await idOf(alice));
    const [aliceSocket, bobSocket, anonymous] = await Promise.all([
      TestSocket.authenticated(url, alice.token),
      TestSocket.authenticated(url, bob.token),
      TestSocket.open(url),
    ]);
    /** The next message on `channel`, skipping the others (the futures_update of the same change). */
    const nextOn = async (socket: TestSocket, channel: string): Promise<ServerMessage> => {
      for (;;) {
        const message = await socket.next();
        if (message.type === 'channel' && message.channel === channel) return message;
      }
    };
    try {
      // Bob and a socket that is not signed in may not listen to Alice's account.
      bobSocket.send({ type: 'subscribe', channel: aliceChannel });
      anonymous.send({ type: 'subscribe', channel: aliceChannel });
      const refusal = { type: 'error', error: `Not allowed to subscribe to ${aliceChannel}` };
      expect(await bobSocket.next()).toEqual(refusal);
      expect(await anonymous.next()).toEqual(refusal);
      aliceSocket.send({ type: 'subscribe', channel: aliceChannel });
      expect(await aliceSocket.next()).toEqual({ type: 'subscribed', channel: aliceChannel });

      // A resting order is pushed to Alice at once, without a tick of the stream.
      const oracle = Number(
        (await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price,
      );
      const placed = await post<{ order: TFuturesOrder }>('/api/futures/order', alice, {
        symbol: 'SOL-PERP',
        side: 'Long',
        order_type: 'Limit',
        amount: 0.1,
        price: Math.floor(oracle * 0.97),
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const pushed = ZFuturesAccountTickSchema.parse((await nextOn(aliceSocket, aliceChannel)).data);
      expect(pushed.account).toEqual(await account(alice));
      expect(pushed.account.open_orders).toBe(1);
      expect(pushed.positions).toEqual((await get('/api/futures/positions', alice)).body.data);
      expect((await post(`/api/futures/orders/${placed.body.data.order.id}/cancel`, alice)).status).toBe(200);
      expect(
        ZFuturesAccountTickSchema.parse((await nextOn(aliceSocket, aliceChannel)).data).account,
      ).toMatchObject({
        open_orders: 0,
      });

      // The market's statistics go to anyone subscribed, as GET /futures/market reads them.
      const marketChannel = futuresMarketChannel('SOL-PERP');
      anonymous.send({ type: 'subscribe', channel: marketChannel });
      expect(await anonymous.next()).toEqual({ type: 'subscribed', channel: marketChannel });
      expect(await app.futuresStream.tick()).toBe(2);
      const stats = ZFuturesMarketStatsSchema.parse((await anonymous.next()).data);
      const { order_book: _book, ...read } = (await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body
        .data;
      expect(stats).toEqual(read);
      expect(ZFuturesAccountTickSchema.parse((await nextOn(aliceSocket, aliceChannel)).data).account).toEqual(
        await account(alice),
      );
      expect(await bobSocket.drain()).toEqual([]);
      expect(await anonymous.drain()).toEqual([]);

      // Signed in again as Bob, the socket leaves Alice's account behind.
      aliceSocket.send({ type: 'auth', token: bob.token });
      expect(await aliceSocket.next()).toMatchObject({ type: 'auth_success' });
      expect(app.hub.subscriberCount(aliceChannel)).toBe(0);
    } finally {
      await Promise.all([aliceSocket, bobSocket, anonymous].map((socket) => socket.close()));
    }
  });

  it('refuses bad orders with the spec’s messages, and changes nothing', async () => {
    const before = await account(alice);
    const order = { symbol: 'SOL-PERP', side: 'Long', order_type: 'Market', amount: 0.1, leverage: 10 };
    const cases: [object, number, string][] = [
      [{ ...order, leverage: 0 }, 400, 'VALIDATION__INVALID_INPUT'],
      [{ ...order, leverage: 101 }, 400, 'VALIDATION__INVALID_INPUT'],
      [{ ...order, leverage: 2.5 }, 400, 'VALIDATION__INVALID_INPUT'],
      [{ ...order, symbol: 'JUP-PERP', leverage: 50 }, 400, 'FUTURES__LEVERAGE_INVALID'],
      [{ ...order, amount: 0 }, 400, 'FUTURES__AMOUNT_OR_PRICE_INVALID'],
      [{ ...order, amount: -1 }, 400, 'FUTURES__AMOUNT_OR_PRICE_INVALID'],
      [{ ...order, amount: 'NaN' }, 400, 'FUTURES__AMOUNT_OR_PRICE_INVALID'],
      [{ ...order, amount: 0.0001 }, 400, 'FUTURES__BELOW_MIN_ORDER_SIZE'],
      [{ ...order, order_type: 'Limit' }, 400, 'FUTURES__AMOUNT_AND_PRICE_REQUIRED'],
      [{ ...order, order_type: 'Limit', price: 0 }, 400, 'FUTURES__AMOUNT_OR_PRICE_INVALID'],
      [{ ...order, amount: 1000 }, 400, 'FUTURES__INSUFFICIENT_MARGIN'],
      [{ ...order, symbol: 'DOGE-PERP' }, 404, 'FUTURES__MARKET_UNSUPPORTED'],
      [{ ...order, side: 'Short', reduce_only: true }, 400, 'FUTURES__REDUCE_ONLY_NO_POSITION'],
    ];
    for (const [payload, status, code] of cases) {
      const answer = await post('/api/futures/order', alice, payload);
      expect(answer.status, JSON.stringify(payload)).toBe(status);
      expect(answer.body.code, JSON.stringify(answer.body)).toBe(code);
    }
    expect((await post('/api/futures/order', alice, { ...order, amount: 0 })).body.error).toBe(
      'Amount/Price invalid',
    );
    expect((await post('/api/futures/order', alice, { ...order, order_type: 'Limit' })).body.error).toBe(
      'Enter amount and price',
    );
    const uninitialized = await fundedWalletUser(app, { amount_sol: 1, amount_usdc: 0 });
    expect((await post('/api/futures/order', uninitialized, order)).body.code).toBe(
      'FUTURES__NOT_INITIALIZED',
    );
    expect(await account(alice)).toEqual(before);
  });

  it('reads every futures amount, price and size as a plain decimal only: no hex, exponent, sign, spaces or words', async () => {
    const before = await account(alice);
    const held = await usdcOf(alice.wallet.address);
    const oracle = (await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price;
    const order = {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Limit',
      amount: '0.1',
      price: oracle,
      leverage: 10,
    };
    // "0x10" used to read as 16 and "1e3" as 1000.
    for (const bad of ['0x10', '1e3', ' 5', '-1', 'Infinity', '5 ', '+5', '1,000', '0b1', '']) {
      const cases: [string, object, string][] = [
        ['/api/futures/order', { ...order, amount: bad }, 'FUTURES__AMOUNT_OR_PRICE_INVALID'],
        ['/api/futures/order', { ...order, price: bad }, 'FUTURES__AMOUNT_OR_PRICE_INVALID'],
        ['/api/futures/collateral/deposit', { amount: bad }, 'FUTURES__DEPOSIT_INVALID'],
        ['/api/futures/collateral/withdraw', { amount: bad }, 'FUTURES__WITHDRAW_INVALID'],
      ];
      for (const [url, payload, code] of cases) {
        const answer = await post(url, alice, payload);
        expect(answer.status, `${url} ${JSON.stringify(payload)}`).toBe(400);
        // An empty field is a missing one ("Enter amount and price"), refused by the schema.
        expect(answer.body.code, JSON.stringify(answer.body)).toBe(
          bad === '' ? 'VALIDATION__INVALID_INPUT' : code,
        );
      }
      for (const field of ['size', 'price', 'margin']) {
        const saved = await post('/api/futures/save-trade', alice, {
          symbol: 'SOL-PERP',
          side: 'long',
          size: '0.5',
          price: '150',
          leverage: 10,
          [field]: bad,
        });
        expect(saved.status, `${field}: ${bad}`).toBe(400);
      }
    }
    expect((await post('/api/futures/order', alice, { ...order, amount: '0x10' })).body.error).toBe(
      'Amount/Price invalid',
    );
    // Plain decimals, with or without a leading zero or a trailing point, still read.
    for (const good of ['.5', '0.50', '5.', '10']) {
      const built = await post('/api/futures/collateral/deposit', alice, { amount: good });
      expect(built.status, good).toBe(200);
    }
    expect(await account(alice)).toMatchObject({
      collateral: before.collateral,
      open_orders: before.open_orders,
    });
    expect(await usdcOf(alice.wallet.address)).toBe(held);
  });

  it('refuses a limit priced more than 8% past the oracle on the side it trades (a wash trade’s first step)', async () => {
    const before = await account(bob);
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price);
    const order = { symbol: 'SOL-PERP', order_type: 'Limit', amount: '0.1', leverage: 100 };
    for (const [side, price] of [
      ['Long', (oracle * 2).toFixed(2)],
      ['Long', (oracle * 1.09).toFixed(2)],
      ['Short', (oracle * 0.5).toFixed(2)],
      ['Short', (oracle * 0.91).toFixed(2)],
    ] as const) {
      const answer = await post('/api/futures/order', bob, { ...order, side, price });
      expect(answer.status, `${side} ${price}`).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'FUTURES__PRICE_OUT_OF_BAND',
        error:
          'Order failed: a Long’s limit price may be at most 8% above the oracle price, a Short’s at most 8% below it',
      });
    }
    expect(await account(bob)).toEqual(before);
  });

  it('opens a 10x SOL long at the market, with its liquidation price, and closes it with PnL', async () => {
    const market = (await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data;
    const amount = Number((400 / Number(market.oracle_price)).toFixed(3));
    const opened = await post<{ order: TFuturesOrder; fills: TFuturesTrade[] }>('/api/futures/order', alice, {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Market',
      amount,
      leverage: 10,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.data.order).toMatchObject({ status: 'Filled', side: 'Long', leverage: 10 });
    expect(Number(opened.body.data.fills[0]!.price)).toBe(Number(market.order_book.best_ask));
    const [position] = (await get<TFuturesPosition[]>('/api/futures/positions', alice)).body.data;
    expect(position).toMatchObject({ id: 'SOL-PERP', side: 'Long', direction: 1, leverage: 10 });
    expect(Number(position!.size)).toBe(amount);
    const interest = await get<{ open_interest: string }>('/api/futures/open-interest/SOL-PERP');
    expect(Number(interest.body.data.open_interest)).toBeGreaterThanOrEqual(amount);
    const marketAfter = (await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data;
    expect(Number(marketAfter.open_interest)).toBeGreaterThanOrEqual(amount);
    expect(Number(marketAfter.volume_24h)).toBeGreaterThan(0);
    const liquidation = Number(position!.liquidation_price);
    expect(liquidation).toBeGreaterThan(0);
    expect(liquidation).toBeLessThan(Number(position!.entry_price));
    const collateralBefore = Number((await account(alice)).collateral);

    // The market rises 2 %: the long gains, and closing realizes it into the collateral.
    await moveOracle('SOL-PERP', 200n);
    const marked = (await get<TFuturesPosition[]>('/api/futures/positions', alice)).body.data[0]!;
    expect(Number(marked.unrealized_pnl)).toBeGreaterThan(0);
    const closed = await post<{ realized_pnl: string; fills: TFuturesTrade[] }>(
      '/api/futures/position/close',
      alice,
      {
        position_id: 'SOL-PERP',
        exit_price: 1,
      },
    );
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const realized = Number(closed.body.data.realized_pnl);
    expect(realized).toBeGreaterThan(0);
    const fee = Number(closed.body.data.fills.reduce((sum, fill) => sum + Number(fill.fee), 0));
    expect(Number((await account(alice)).collateral)).toBeCloseTo(collateralBefore + realized - fee, 5);
    expect((await get<TFuturesPosition[]>('/api/futures/positions', alice)).body.data).toEqual([]);
    expect(
      (await post('/api/futures/position/close', alice, { position_id: 'SOL-PERP' })).body,
    ).toMatchObject({
      code: 'FUTURES__POSITION_NOT_FOUND',
      error: 'Failed to close position',
    });
    await vaultMatchesLedger();

    // The chart's markers: on SOL/USDC the opening fills buy and the closing ones sell, labelled by
    // their market, the size in SOL; nobody else sees them, and no other pair holds them.
    const now = Math.floor(app.clock.now().getTime() / 1000);
    const window = `from=${now - 3600}&to=${now + 5}`;
    const marks = await get<TChartFills>(`/api/trading/fills?pair=SOL/USDC&${window}`, alice);
    expect(marks.status, JSON.stringify(marks.body)).toBe(200);
    const perp = marks.body.data.fills.filter((fill) => fill.source === 'futures');
    expect(new Set(perp.map((fill) => fill.label))).toEqual(new Set(['SOL-PERP']));
    const sizeOf = (side: string) =>
      perp.filter((fill) => fill.side === side).reduce((sum, fill) => sum + Number(fill.quantity), 0);
    expect(sizeOf('Buy')).toBeCloseTo(amount, 9);
    expect(sizeOf('Sell')).toBeCloseTo(amount, 9);
    const opening = perp.find(
      (fill) => fill.side === 'Buy' && Number(fill.price) === Number(market.order_book.best_ask),
    );
    expect(opening).toBeDefined();
    for (const [user, pair] of [
      [bob, 'SOL/USDC'],
      [alice, 'BTC/USDC'],
      [alice, 'BONK/SOL'],
    ] as const) {
      const other = await get<TChartFills>(`/api/trading/fills?pair=${pair}&${window}`, user);
      expect(other.status, JSON.stringify(other.body)).toBe(200);
      expect(
        other.body.data.fills.filter((fill) => fill.source === 'futures'),
        pair,
      ).toEqual([]);
    }
  });

  /** Opens a SOL long of about `notional` USDC for the user; answers its size (SOL). */
  async function openSolLong(user: User, notional: number) {
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price);
    const amount = Number((notional / oracle).toFixed(3));
    const opened = await post('/api/futures/order', user, {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Market',
      amount,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    return { amount, oracle };
  }
  const orderOf = async (user: User, id: string) =>
    (await get<TFuturesOrder[]>('/api/futures/orders', user)).body.data.find((order) => order.id === id);
  const solPosition = async (user: User) =>
    (await get<TFuturesPosition[]>('/api/futures/positions', user)).body.data.find(
      (p) => p.symbol === 'SOL-PERP',
    );

  it('a take profit market fills once when the oracle rises to it, a stop market when it falls to it; both only the owner’s', async () => {
    const { amount, oracle } = await openSolLong(alice, 300);
    const trigger = { symbol: 'SOL-PERP', side: 'Short', amount, reduce_only: true };
    // Refusals: no trigger price, the wrong side of the oracle (it would fire at once), a reduce-only
    // trigger on the side that would grow the position.
    const missing = await post('/api/futures/order', alice, { ...trigger, type: 'stop_market' });
    expect([missing.status, missing.body.code]).toEqual([400, 'FUTURES__TRIGGER_PRICE_REQUIRED']);
    const wrong = await post('/api/futures/order', alice, {
      ...trigger,
      type: 'take_profit_market',
      trigger_price: (oracle * 0.99).toFixed(2),
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'FUTURES__TRIGGER_WRONG_SIDE']);
    expect(wrong.body.error).toBe(
      'Order failed: a Short take profit market order triggers when the oracle price rises to its trigger price, so the trigger price must be above the oracle price',
    );
    const growing = await post('/api/futures/order', alice, {
      ...trigger,
      side: 'Long',
      type: 'stop_market',
      trigger_price: (oracle * 1.05).toFixed(2),
    });
    expect([growing.status, growing.body.code]).toEqual([400, 'FUTURES__REDUCE_ONLY_NO_POSITION']);
    const badType = await post('/api/futures/order', alice, {
      ...trigger,
      type: 'stop_limit',
      trigger_price: 1,
    });
    expect(badType.status).toBe(400);
    expect((await get<TFuturesOrder[]>('/api/futures/orders', alice)).body.data[0]!.status).not.toBe('Open');

    const tp = await post<{ order: TFuturesOrder; fills: TFuturesTrade[] }>('/api/futures/order', alice, {
      ...trigger,
      type: 'take_profit_market',
      trigger_price: (oracle * 1.02).toFixed(2),
    });
    expect(tp.status, JSON.stringify(tp.body)).toBe(200);
    expect(tp.body.data).toMatchObject({
      fills: [],
      order: {
        order_type: 'TakeProfitMarket',
        status: 'Open',
        reduce_only: true,
        tpsl: null,
        triggered_at: null,
      },
    });
    const id = tp.body.data.order.id;
    expect(Number(tp.body.data.order.trigger_price)).toBeCloseTo(oracle * 1.02, 1);
    expect((await account(alice)).open_orders).toBe(1);
    // Another user can neither cancel it nor see it.
    expect((await post(`/api/futures/orders/${id}/cancel`, bob)).body.code).toBe('FUTURES__ORDER_NOT_FOUND');
    expect(await orderOf(bob, id)).toBeUndefined();

    await moveOracle('SOL-PERP', 100n);
    expect(await keeper().fireTriggers()).toBe(0);
    expect((await orderOf(alice, id))?.status).toBe('Open');
    await moveOracle('SOL-PERP', 150n);
    // Two passes racing (two processes' keepers): it fires once.
    const fired = await Promise.all([keeper().fireTriggers(), keeper().fireTriggers()]);
    expect(fired[0] + fired[1]).toBe(1);
    expect(await keeper().fireTriggers()).toBe(0);
    const filled = await orderOf(alice, id);
    expect(filled).toMatchObject({ status: 'Filled', filled_size: amount.toFixed(3), status_reason: null });
    expect(filled!.triggered_at).not.toBeNull();
    expect(await solPosition(alice)).toBeUndefined();
    const trades = (await get<TFuturesTrade[]>('/api/futures/trades', alice)).body.data;
    const tpFill = trades.find((trade) => trade.order_id === id)!;
    expect(tpFill).toMatchObject({ side: 'Short', role: 'taker', liquidation: false });
    expect(Number(tpFill.realized_pnl)).toBeGreaterThan(0);

    // A stop market under a new long fires when the oracle falls to it, at a loss.
    const again = await openSolLong(alice, 300);
    const sl = await post<{ order: TFuturesOrder }>('/api/futures/order', alice, {
      ...trigger,
      amount: again.amount,
      type: 'stop_market',
      trigger_price: (again.oracle * 0.98).toFixed(2),
    });
    expect(sl.status, JSON.stringify(sl.body)).toBe(200);
    await moveOracle('SOL-PERP', -250n);
    expect(await keeper().fireTriggers()).toBe(1);
    expect(await orderOf(alice, sl.body.data.order.id)).toMatchObject({
      status: 'Filled',
      order_type: 'StopMarket',
    });
    const slFill = (await get<TFuturesTrade[]>('/api/futures/trades', alice)).body.data.find(
      (trade) => trade.order_id === sl.body.data.order.id,
    )!;
    expect(Number(slFill.realized_pnl)).toBeLessThan(0);
    expect(await solPosition(alice)).toBeUndefined();
    expect((await account(alice)).open_orders).toBe(0);
    await vaultMatchesLedger();
  });

  it('a position’s TP/SL: shown on the position, resized when it shrinks, replaced or removed, cancelled when it closes', async () => {
    const none = await post('/api/futures/position/tpsl', bob, {
      symbol: 'SOL-PERP',
      take_profit_price: 500,
    });
    expect([none.status, none.body.code]).toEqual([400, 'FUTURES__TPSL_NO_POSITION']);
    const { amount, oracle } = await openSolLong(alice, 300);
    const empty = await post('/api/futures/position/tpsl', alice, { symbol: 'SOL-PERP' });
    expect([empty.status, empty.body.code]).toEqual([400, 'FUTURES__TPSL_EMPTY']);
    const wrong = await post('/api/futures/position/tpsl', alice, {
      symbol: 'SOL-PERP',
      take_profit_price: (oracle * 1.05).toFixed(2),
      stop_loss_price: (oracle * 1.01).toFixed(2),
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'FUTURES__TRIGGER_WRONG_SIDE']);
    expect((await solPosition(alice))!.take_profit).toBeNull();

    const set = await post<TFuturesPosition>('/api/futures/position/tpsl', alice, {
      symbol: 'SOL-PERP',
      take_profit_price: (oracle * 1.05).toFixed(2),
      stop_loss_price: (oracle * 0.95).toFixed(2),
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const { take_profit: tp, stop_loss: sl } = set.body.data;
    expect(Number(tp!.trigger_price)).toBeCloseTo(oracle * 1.05, 1);
    expect(Number(sl!.trigger_price)).toBeCloseTo(oracle * 0.95, 1);
    expect(await orderOf(alice, tp!.order_id)).toMatchObject({
      tpsl: 'tp',
      order_type: 'TakeProfitMarket',
      side: 'Short',
      reduce_only: true,
      status: 'Open',
      size: amount.toFixed(3),
    });
    expect(await orderOf(alice, sl!.order_id)).toMatchObject({ tpsl: 'sl', order_type: 'StopMarket' });

    // Half the position sold: both legs shrink with it.
    const half = Number((amount / 2).toFixed(3));
    await post('/api/futures/order', alice, {
      symbol: 'SOL-PERP',
      side: 'Short',
      amount: half,
      reduce_only: true,
    });
    const rest = (amount - half).toFixed(3);
    expect((await orderOf(alice, tp!.order_id))!.size).toBe(rest);
    expect((await orderOf(alice, sl!.order_id))!.size).toBe(rest);
    // The SL removed (null), the TP kept.
    const removed = await post<TFuturesPosition>('/api/futures/position/tpsl', alice, {
      symbol: 'SOL-PERP',
      stop_loss_price: null,
    });
    expect(removed.body.data).toMatchObject({ take_profit: tp, stop_loss: null });
    expect(await orderOf(alice, sl!.order_id)).toMatchObject({
      status: 'Cancelled',
      status_reason: 'Replaced',
    });
    // Closed: the TP goes with it, and nothing fires afterwards.
    await post('/api/futures/position/close', alice, { position_id: 'SOL-PERP' });
    expect((await orderOf(alice, tp!.order_id))!.status).toBe('Cancelled');
    await moveOracle('SOL-PERP', 600n);
    expect(await keeper().fireTriggers()).toBe(0);
    expect((await account(alice)).open_orders).toBe(0);

    // The TP that fires closes the position and cancels its SL.
    const second = await openSolLong(alice, 300);
    const pair = await post<TFuturesPosition>('/api/futures/position/tpsl', alice, {
      symbol: 'SOL-PERP',
      take_profit_price: (second.oracle * 1.01).toFixed(2),
      stop_loss_price: (second.oracle * 0.99).toFixed(2),
    });
    // Another process replays the log into the same venue, TP/SL included.
    const { ledger } = internals();
    await ledger.load();
    expect(snapshotOf(await ledger.read()).triggers).toEqual(
      snapshotOf(await venue().ledger.read()).triggers,
    );
    await moveOracle('SOL-PERP', 150n);
    expect(await keeper().fireTriggers()).toBe(1);
    expect((await orderOf(alice, pair.body.data.take_profit!.order_id))!.status).toBe('Filled');
    expect((await orderOf(alice, pair.body.data.stop_loss!.order_id))!.status).toBe('Cancelled');
    expect(await solPosition(alice)).toBeUndefined();
    await moveOracle('SOL-PERP', -900n);
    await vaultMatchesLedger();
  });

  it('rests a 5x BTC short limit order that fills when the market reaches it; cancels are the owner’s only', async () => {
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/BTC-PERP')).body.data.oracle_price);
    const price = Math.round(oracle * 1.005);
    const placed = await post<{ order: TFuturesOrder }>('/api/futures/order', alice, {
      symbol: 'BTC-PERP',
      side: 'Short',
      order_type: 'Limit',
      amount: 0.002,
      price,
      leverage: 5,
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data.order.status).toBe('Open');
    const id = placed.body.data.order.id;
    const book = (await get<TFuturesMarket>('/api/futures/market/BTC-PERP')).body.data.order_book;
    expect(book.asks.some((level) => Number(level.price) === price)).toBe(true);
    expect((await post(`/api/futures/orders/${id}/cancel`, bob)).status).toBe(404);
    const pushed = vi.spyOn(app.hub, 'publishChannel');
    await moveOracle('BTC-PERP', 100n); // the maker's bids now cross the resting ask
    await new Promise((resolve) => setTimeout(resolve, 250)); // books are pushed at most every 200 ms
    const channels = pushed.mock.calls.map(([channel]) => channel);
    expect(channels).toContain('futures-book:BTC-PERP');
    expect(channels).toContain('futures-trades:BTC-PERP');
    // Every push passed its channel's schema (a bad payload rejects).
    await Promise.all(pushed.mock.results.map((result) => result.value));
    pushed.mockRestore();
    const [order] = (await get<TFuturesOrder[]>('/api/futures/orders', alice)).body.data;
    expect(order).toMatchObject({ id, status: 'Filled', average_fill_price: `${price}` });
    const short = (await get<TFuturesPosition[]>('/api/futures/positions', alice)).body.data.find(
      (p) => p.symbol === 'BTC-PERP',
    );
    expect(short).toMatchObject({ side: 'Short', direction: -1, leverage: 5, size: '0.0020' });
    // A second limit far away rests, and its owner cancels it.
    const resting = await post<{ order: TFuturesOrder }>('/api/futures/order', alice, {
      symbol: 'BTC-PERP',
      side: 'Long',
      order_type: 'Limit',
      amount: 0.001,
      price: Math.round(oracle * 0.9),
      leverage: 5,
    });
    const cancelled = await post<TFuturesOrder>(
      `/api/futures/orders/${resting.body.data.order.id}/cancel`,
      alice,
    );
    expect(cancelled.body.data.status).toBe('Cancelled');
    expect((await post(`/api/futures/orders/${resting.body.data.order.id}/cancel`, alice)).status).toBe(404);
    await post('/api/futures/position/close', alice, { position_id: 'BTC-PERP' });
    await vaultMatchesLedger();
  });

  it('users’ orders match each other, not only the maker', async () => {
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/ETH-PERP')).body.data.oracle_price);
    const price = Number((oracle * 1.0001).toFixed(1)); // inside the maker's spread
    const ask = await post<{ order: TFuturesOrder }>('/api/futures/order', bob, {
      symbol: 'ETH-PERP',
      side: 'Short',
      order_type: 'Limit',
      amount: 0.01,
      price,
      leverage: 3,
      post_only: true,
    });
    expect(ask.status, JSON.stringify(ask.body)).toBe(200);
    const take = await post<{ fills: TFuturesTrade[] }>('/api/futures/order', alice, {
      symbol: 'ETH-PERP',
      side: 'Long',
      order_type: 'Limit',
      amount: 0.01,
      price,
      leverage: 3,
    });
    expect(take.body.data.fills).toHaveLength(1);
    expect(take.body.data.fills[0]).toMatchObject({ role: 'taker', price: price.toFixed(1) });
    const bobTrades = (await get<TFuturesTrade[]>('/api/futures/trades', bob)).body.data;
    expect(bobTrades[0]).toMatchObject({ role: 'maker', side: 'Short', symbol: 'ETH-PERP' });
    await post('/api/futures/position/close', alice, { position_id: 'ETH-PERP' });
    await post('/api/futures/position/close', bob, { position_id: 'ETH-PERP' });
  });

  it('concurrent orders that together exceed the margin: only what the collateral covers is accepted', async () => {
    const equity = Number((await account(bob)).equity);
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price);
    // Each needs ~40 % of the equity at 2x, at its limit price.
    const limit = Math.round(oracle * 0.8);
    const amount = Number(((equity * 0.8) / limit).toFixed(3));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post('/api/futures/order', bob, {
          symbol: 'SOL-PERP',
          side: 'Long',
          order_type: 'Limit',
          amount,
          price: limit,
          leverage: 2,
        }),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(accepted).toBe(2);
    for (const answer of answers.filter((a) => a.status !== 200))
      expect(answer.body.code).toBe('FUTURES__INSUFFICIENT_MARGIN');
    const after = await account(bob);
    expect(Number(after.free_collateral)).toBeGreaterThanOrEqual(0);
    for (const order of (await get<TFuturesOrder[]>('/api/futures/orders', bob)).body.data.filter(
      (o) => o.status === 'Open',
    )) {
      await post(`/api/futures/orders/${order.id}/cancel`, bob);
    }
  });

  it('withdraws free collateral to the owner’s wallet on chain, never more', async () => {
    const held = await usdcOf(alice.wallet.address);
    const free = Number((await account(alice)).free_collateral);
    const tooMuch = await post('/api/futures/collateral/withdraw', alice, { amount: free + 1 });
    expect(tooMuch.body.code).toBe('FUTURES__INSUFFICIENT_FREE_COLLATERAL');
    expect((await post('/api/futures/collateral/withdraw', alice, { amount: 0 })).body.code).toBe(
      'FUTURES__WITHDRAW_INVALID',
    );
    const done = await post<{ signature: string; amount: string }>(
      '/api/futures/collateral/withdraw',
      alice,
      { amount: 10 },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await usdcOf(alice.wallet.address)).toBe(held + 10_000_000n);
    expect(Number((await account(alice)).free_collateral)).toBeCloseTo(free - 10, 5);
    await vaultMatchesLedger();
  });

  it('liquidates a position below maintenance and tells the user why', async () => {
    const publish = vi.spyOn(app.hub, 'publish');
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price);
    const equity = Number((await account(bob)).equity);
    const amount = Number(((equity * 60) / oracle).toFixed(3)); // 60x of the equity
    const opened = await post('/api/futures/order', bob, {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Market',
      amount,
      leverage: 75,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const insuranceBefore = (await venue().ledger.read()).insurance;
    await moveOracle('SOL-PERP', -120n); // equity falls below the 0.5 % maintenance before it is gone
    expect(await keeper().liquidate()).toBe(1);
    expect((await get<TFuturesPosition[]>('/api/futures/positions', bob)).body.data).toEqual([]);
    const trades = (await get<TFuturesTrade[]>('/api/futures/trades', bob)).body.data;
    expect(trades[0]).toMatchObject({ liquidation: true, symbol: 'SOL-PERP', side: 'Short' });
    expect(Number((await account(bob)).collateral)).toBeGreaterThanOrEqual(0);
    expect((await venue().ledger.read()).insurance).toBeGreaterThan(insuranceBefore); // the liquidation fee
    const told = publish.mock.calls.find(
      ([, message]) => message.type === 'futures_update' && message.data.reason === 'liquidation',
    );
    expect(told?.[1]).toMatchObject({
      data: { message: expect.stringContaining('equity fell below the maintenance margin') },
    });
    publish.mockRestore();
    await vaultMatchesLedger();
  });

  it('pays funding each hour, longs and shorts paying each other', async () => {
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price);
    await post('/api/futures/order', alice, {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Market',
      amount: Number((100 / oracle).toFixed(3)),
      leverage: 5,
    });
    // Premium: the book's mid sits above the oracle for the hour.
    await venue().run({ k: 'funding', market: 'SOL-PERP', rate: '0.0005', at: app.clock.now().getTime() });
    const [position] = (await get<TFuturesPosition[]>('/api/futures/positions', alice)).body.data;
    expect(Number(position!.funding)).toBeLessThan(0);
    const funding = await get<{ funding_rate: string; history: { rate: string }[] }>(
      '/api/futures/funding/SOL-PERP',
    );
    expect(funding.body.data.funding_rate).toBe('0.0005');
    expect(funding.body.data.history[0]!.rate).toBe('0.0005');
    // The keeper's hourly pass: nothing before the hour turns, then every market once.
    expect(await keeper().fund()).toBe(false);
    app.clock.advance(3_600_000);
    expect(await keeper().fund()).toBe(true);
    expect(await keeper().fund()).toBe(false);
    await vaultMatchesLedger();
  });

  it('an order first brings a market up to the feed: nobody trades against quotes the feed left behind', async () => {
    const market = app.services.market;
    const feed = async () => Number(await market.getUsdPrice(await market.resolveToken('ETH')));
    // Time has passed since the keeper's last pass: the feed has moved away from the venue's oracle.
    app.clock.advance(600_000);
    const now = await feed();
    // The venue's oracle as the keeper left it (a public read would bring it up to the feed first).
    const stale = Number(priceOfUnits((await venue().ledger.read()).market('ETH-PERP').oracle));
    expect(Math.abs(now - stale) / stale).toBeGreaterThan(0.002); // far more than the 0.1 % checked below
    const placed = await post<{ fills: TFuturesTrade[] }>('/api/futures/order', alice, {
      symbol: 'ETH-PERP',
      side: now > stale ? 'Long' : 'Short',
      order_type: 'Market',
      amount: 0.01,
      leverage: 2,
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const price = Number(placed.body.data.fills[0]!.price);
    expect(Math.abs(price - now) / now).toBeLessThan(0.001); // at the maker's fresh quote, not the stale one
    const synced = Number((await get<TFuturesMarket>('/api/futures/market/ETH-PERP')).body.data.oracle_price);
    expect(synced).toBeCloseTo(now, 1);
    await post('/api/futures/position/close', alice, { position_id: 'ETH-PERP' });
  });

  it('another process (or a restart) rebuilds the same venue from the log', async () => {
    const { ledger } = internals();
    await ledger.load();
    const rebuilt = snapshotOf(await ledger.read());
    const live = snapshotOf(await venue().ledger.read());
    expect(rebuilt).toEqual(live);
  });

  it('saves a futures trade record', async () => {
    const saved = await post<{ id: string; saved: boolean }>('/api/futures/save-trade', alice, {
      symbol: 'SOL-PERP',
      side: 'long',
      size: 0.5,
      price: 150,
      leverage: 10,
      margin: 7.5,
      tx_hash: 'abc',
      signature: 'abc',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await post('/api/futures/save-trade', alice, { symbol: 'SOL-PERP' })).status).toBe(400);
  });

  it('an oracle gap past the bankruptcy price: the maker takes the position over at the oracle, and the insurance fund pays exactly the gap', async () => {
    const publish = vi.spyOn(app.hub, 'publish');
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price);
    const equity = Number((await account(alice)).equity);
    const amount = Number(((equity * 60) / oracle).toFixed(3)); // 60x: the equity covers a 1/60 fall
    // Leverage is the account's setting (an order never changes it while something is open).
    const levered = await post('/api/futures/leverage', alice, { symbol: 'SOL-PERP', leverage: 75 });
    expect(levered.status, JSON.stringify(levered.body)).toBe(200);
    const opened = await post('/api/futures/order', alice, {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Market',
      amount,
      leverage: 75,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const next = await moveOracle('SOL-PERP', -300n); // the maker re-quotes under the bankruptcy price
    const before = await venue().ledger.read();
    const [id] = before.liquidatable().filter((liquidatable) => liquidatable !== MAKER_ACCOUNT);
    const gap = -before.equityOf(before.account(id!));
    expect(gap).toBeGreaterThan(0n);
    const insuranceBefore = before.insurance;
    expect(await keeper().liquidate()).toBe(1);
    expect((await get<TFuturesPosition[]>('/api/futures/positions', alice)).body.data).toEqual([]);
    const trades = (await get<TFuturesTrade[]>('/api/futures/trades', alice)).body.data;
    expect(trades[0]).toMatchObject({ liquidation: true, symbol: 'SOL-PERP', side: 'Short' });
    expect(Number(trades[0]!.price)).toBeCloseTo(Number(next) / 1_000_000, 6); // at the oracle
    expect(Number((await account(alice)).collateral)).toBe(0);
    expect((await venue().ledger.read()).insurance).toBe(insuranceBefore - gap);
    const told = publish.mock.calls.find(
      ([, message]) => message.type === 'futures_update' && message.data.reason === 'liquidation',
    );
    expect(told).toBeDefined();
    publish.mockRestore();
    await vaultMatchesLedger();
  });

  it('leverage is the account’s setting per market: an order at another leverage is refused and never re-levers the position; the explicit change is refused when it cannot be margined, and survives a restart', async () => {
    const carol = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 1000 });
    await deposit(carol, '/api/futures/account/initialize', 100);
    const settingOf = async () =>
      (await account(carol)).leverage_settings.find((setting) => setting.symbol === 'SOL-PERP')!;
    expect(await settingOf()).toMatchObject({ leverage: 10, max_leverage: 100, in_use: false });
    expect(
      (
        await call(app, {
          method: 'POST',
          url: '/api/futures/leverage',
          payload: { symbol: 'SOL-PERP', leverage: 5 },
        })
      ).status,
    ).toBe(401);
    for (const [payload, status, code] of [
      [{ symbol: 'SOL-PERP', leverage: 0 }, 400, 'VALIDATION__INVALID_INPUT'],
      [{ symbol: 'SOL-PERP', leverage: 2.5 }, 400, 'VALIDATION__INVALID_INPUT'],
      [{ symbol: 'JUP-PERP', leverage: 50 }, 400, 'FUTURES__LEVERAGE_INVALID'],
      [{ symbol: 'BONK/USDC', leverage: 5 }, 404, 'FUTURES__MARKET_UNSUPPORTED'],
    ] as const) {
      const answer = await post('/api/futures/leverage', carol, payload);
      expect([answer.status, answer.body.code], JSON.stringify(payload)).toEqual([status, code]);
    }
    const set = await post<{ leverage: number; in_use: boolean }>('/api/futures/leverage', carol, {
      symbol: 'SOL-PERP',
      leverage: 20,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ leverage: 20, in_use: false });
    const oracle = Number((await get<TFuturesMarket>('/api/futures/market/SOL-PERP')).body.data.oracle_price);
    const amount = (150 / oracle).toFixed(3);
    const opened = await post('/api/futures/order', carol, {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Market',
      amount,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const positionOf = async () =>
      (await get<TFuturesPosition[]>('/api/futures/positions', carol)).body.data[0]!;
    const before = await positionOf();
    const accountBefore = await account(carol);
    expect(before.leverage).toBe(20);
    // The case: a small limit at 1x must not turn the 20x long into 1x.
    const limit = {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Limit',
      amount: '0.01',
      price: (oracle * 0.95).toFixed(2),
    };
    const refused = await post('/api/futures/order', carol, { ...limit, leverage: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('FUTURES__LEVERAGE_MISMATCH');
    expect(refused.body.error).toContain('leverage is 20x');
    expect(await positionOf()).toEqual(before);
    expect((await account(carol)).initial_margin).toBe(accountBefore.initial_margin);
    // At the setting (or without a leverage) the order adds its own margin only.
    const rested = await post<{ order: TFuturesOrder }>('/api/futures/order', carol, limit);
    expect(rested.status, JSON.stringify(rested.body)).toBe(200);
    expect(rested.body.data.order.leverage).toBe(20);
    expect((await positionOf()).margin).toBe(before.margin);
    expect(await settingOf()).toMatchObject({ leverage: 20, in_use: true });
    // 1x would need the whole notional (~150 USDC) from 100 USDC: refused, nothing changes.
    const lowered = await post('/api/futures/leverage', carol, { symbol: 'SOL-PERP', leverage: 1 });
    expect(lowered.status).toBe(409);
    expect(lowered.body.code).toBe('FUTURES__LEVERAGE_UNDERMARGINED');
    expect(lowered.body.error).toContain('cannot be margined at 1x');
    expect((await positionOf()).leverage).toBe(20);
    // 5x is margined: the position and the open order follow it.
    const five = await post<{ leverage: number; initial_margin: string }>('/api/futures/leverage', carol, {
      symbol: 'SOL-PERP',
      leverage: 5,
    });
    expect(five.status, JSON.stringify(five.body)).toBe(200);
    const after = await positionOf();
    expect(after.leverage).toBe(5);
    expect(Number(after.margin)).toBeCloseTo(Number(after.notional) / 5, 5);
    const orders = (await get<TFuturesOrder[]>('/api/futures/orders', carol)).body.data;
    expect(orders.find((order) => order.status === 'Open')?.leverage).toBe(5);
    expect(Number(five.body.data.initial_margin)).toBeCloseTo(
      Number(after.margin) + (0.01 * Number(limit.price)) / 5,
      4,
    );
    // Another process (or a restart) replays the change from the log.
    const { ledger } = internals();
    await ledger.load();
    const replayed = await ledger.read();
    const id = [...replayed.accounts.keys()].find(
      (key) =>
        replayed.accounts.get(key)!.positions.has('SOL-PERP') &&
        replayed.leverageOf(replayed.accounts.get(key)!, 'SOL-PERP') === 5,
    );
    expect(id).toBeDefined();
    expect(snapshotOf(replayed)).toEqual(snapshotOf(await venue().ledger.read()));
    await vaultMatchesLedger();
  });
});
