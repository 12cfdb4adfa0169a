import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TRADE_MESSAGES,
  type TExecuteSignedTransactionResult,
  type TOrderBook,
  type TPosition,
  type TSpotOrder,
  type TSuggestion,
  type TTrade,
  type TTradesHistory,
  type TUnsignedTransaction,
  type TWalletBalance,
} from '@solterm/contracts';
import {
  bearer,
  call,
  createTestApp,
  openTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createSolanaWallet, signInWithWallet, type SolanaSigningWallet } from './helpers/wallets';

interface Trader {
  token: string;
  wallet: SolanaSigningWallet;
}

describe('spot trading on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    // The keeper is driven by hand (keeper.tick) so fills happen exactly when a test wants them.
    app = await createTestApp({ database, env: { LIMIT_KEEPER_INTERVAL_MS: '60000' } });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  async function trader(funding: { amount_sol?: number; amount_usdc?: number } = {}): Promise<Trader> {
    const wallet = createSolanaWallet();
    const { status, body } = await signInWithWallet(app, wallet, 'phantom');
    expect(status).toBe(200);
    const token = body.data.token;
    const funded = await call(app, {
      method: 'POST',
      url: '/api/wallet/fund',
      headers: bearer(token),
      payload: { amount_sol: 5, amount_usdc: 2000, ...funding },
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    return { token, wallet };
  }

  const balances = async (user: Trader) => {
    const { status, body } = await call<TWalletBalance>(app, {
      method: 'GET',
      url: '/api/wallet/balance',
      headers: bearer(user.token),
    });
    expect(status).toBe(200);
    return body.data;
  };

  const unsigned = (user: Trader, order: object) =>
    call<TUnsignedTransaction>(app, {
      method: 'POST',
      url: '/api/trading/get-unsigned-transaction',
      headers: bearer(user.token),
      payload: order,
    });

  const execute = (user: Trader, signed: string, key?: string) =>
    call<TExecuteSignedTransactionResult>(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      headers: { ...bearer(user.token), ...(key ? { 'idempotency-key': key } : {}) },
      payload: { signed_transaction: signed },
    });

  /** get-unsigned → wallet signs → execute; returns the execute answer. */
  async function trade(user: Trader, order: object) {
    const built = await unsigned(user, order);
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    return {
      built: built.body.data,
      result: await execute(user, user.wallet.signTransaction(built.body.data.unsigned_transaction)),
    };
  }

  it('buys 0.5 SOL with USDC: the maker co-signs, the wallet signs, the swap settles on chain and is recorded', async () => {
    const user = await trader();
    const before = await balances(user);
    expect(before.usdc_balance).toBe(2000);

    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      quantity: 0.5,
      price: 150,
    });
    expect(built.size_bytes).toBeLessThanOrEqual(1232);
    expect(built.quote).toMatchObject({
      venue: 'local-rfq',
      base_symbol: 'SOL',
      quote_symbol: 'USDC',
      quantity: 0.5,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const { transaction_hash: hash, order } = result.body.data;
    expect(hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(order).toMatchObject({
      status: 'Filled',
      side: 'Buy',
      order_type: 'Market',
      symbol: 'SOL/USDC',
      tx_hash: hash,
    });
    expect(order!.filled_quantity).toBe(0.5);
    expect(order!.receipt).toMatchObject({
      network_fee_sol: expect.any(Number),
      time_to_land_ms: expect.any(Number),
    });

    const after = await balances(user);
    // Exactly the quoted USDC left the wallet; 0.5 SOL arrived, less the network fee.
    expect(before.usdc_balance - after.usdc_balance).toBeCloseTo(built.quote!.quote_amount, 6);
    expect(after.sol_balance).toBeGreaterThan(before.sol_balance + 0.49);

    const recorded = await call<TSpotOrder>(app, {
      method: 'POST',
      url: '/api/trading/spot/order',
      headers: bearer(user.token),
      payload: { tx_hash: hash, symbol: 'SOL/USDC', side: 'Buy', quantity: 0.5, status: 'Filled' },
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data.id).toBe(order!.id);
    const again = await call<TSpotOrder>(app, {
      method: 'POST',
      url: '/api/trading/spot/order',
      headers: bearer(user.token),
      payload: { tx_hash: hash },
    });
    expect(again.body.data).toEqual(recorded.body.data);

    const trades = await call<TTrade[]>(app, {
      method: 'GET',
      url: '/api/trading/trades?limit=10',
      headers: bearer(user.token),
    });
    expect(trades.body.data).toHaveLength(1);
    expect(trades.body.data[0]).toMatchObject({
      side: 'Buy',
      quantity: 0.5,
      tx_hash: hash,
      status: 'Filled',
    });
    const history = await call<TTradesHistory>(app, {
      method: 'GET',
      url: '/api/trading/trades/history?limit=5&offset=0',
      headers: bearer(user.token),
    });
    expect(history.body.data).toMatchObject({ total: 1, limit: 5, offset: 0 });

    const positions = await call<TPosition[]>(app, {
      method: 'GET',
      url: '/api/trading/positions',
      headers: bearer(user.token),
    });
    expect(positions.body.data).toEqual([
      expect.objectContaining({
        symbol: 'SOL/USDC',
        side: 'Long',
        size: 0.5,
        average_entry_price: order!.average_fill_price,
      }),
    ]);
  });

  it('sells SOL for USDC at the maker bid', async () => {
    const user = await trader();
    const before = await balances(user);
    const { built, result } = await trade(user, { symbol: 'SOL/USDC', side: 'Sell', quantity: 1 });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const after = await balances(user);
    expect(after.usdc_balance - before.usdc_balance).toBeCloseTo(built.quote!.quote_amount, 6);
    expect(before.sol_balance - after.sol_balance).toBeGreaterThan(1);
    expect(built.quote!.price).toBeLessThan(built.quote!.market_price);
  });

  it('answers a retried Idempotency-Key with the first answer and refuses it with another body', async () => {
    const user = await trader();
    const built = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.1 });
    const signed = user.wallet.signTransaction(built.body.data.unsigned_transaction);
    const first = await execute(user, signed, 'key-1');
    expect(first.status).toBe(200);
    const second = await execute(user, signed, 'key-1');
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const other = await execute(
      user,
      user.wallet.signTransaction(built.body.data.unsigned_transaction) + 'AA',
      'key-1',
    );
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('TRADING__IDEMPOTENCY_CONFLICT');
    // Without the key, the same signed bytes are a replay.
    const replay = await execute(user, signed);
    expect(replay.status).toBe(409);
    expect(replay.body.error).toBe('This transaction has already been executed');
  });

  it('refuses a transaction that differs from the one built, or lacks the wallet signature, and nothing moves', async () => {
    const user = await trader();
    const before = await balances(user);
    const built = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.2 });
    const wire = Buffer.from(built.body.data.unsigned_transaction, 'base64');
    const missing = await execute(user, built.body.data.unsigned_transaction);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('TRADING__SIGNATURE_MISSING');
    // Change the last byte (inside the last instruction's data) and sign the altered message.
    wire[wire.length - 1] = wire[wire.length - 1]! ^ 0x01;
    const altered = await execute(user, user.wallet.signTransaction(wire.toString('base64')));
    expect(altered.status).toBe(400);
    expect(altered.body.code).toBe('TRADING__TRANSACTION_MODIFIED');
    const garbage = await execute(user, 'bm90IGEgdHJhbnNhY3Rpb24=');
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('TRADING__TRANSACTION_INVALID');
    expect(await balances(user)).toEqual(before);
  });

  it("reports an expired blockhash with the spec's message and changes nothing", async () => {
    const user = await trader();
    const before = await balances(user);
    const built = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.2 });
    await app.cluster!.advanceSlots(200);
    const result = await execute(user, user.wallet.signTransaction(built.body.data.unsigned_transaction));
    expect(result.status).toBe(400);
    expect(result.body.error).toBe(TRADE_MESSAGES.transactionExpired);
    expect(await balances(user)).toEqual(before);
  });

  it('refuses bad amounts, unknown pairs and orders the wallet cannot afford, before building anything', async () => {
    const user = await trader({ amount_usdc: 10 });
    for (const quantity of [0, -1, 1e308, 'NaN', null]) {
      const refused = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity });
      expect(refused.status, String(quantity)).toBe(400);
    }
    const dust = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 1e-12 });
    expect(dust.status).toBe(400);
    expect(dust.body.error).toBe('Amount and price must be greater than 0');
    const limitWithoutPrice = await unsigned(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 1,
    });
    expect(limitWithoutPrice.status).toBe(400);
    expect(limitWithoutPrice.body.error).toContain('Please enter amount and price');
    const dustLimit = await unsigned(user, {
      symbol: 'SOL/USDC',
      side: 'Sell',
      order_type: 'Limit',
      quantity: 0.0005,
      price: 100_000,
    });
    expect(dustLimit.status).toBe(400);
    expect(dustLimit.body.error).toBe(
      'A limit order moves at least 0.00089088 SOL (the rent-exempt minimum)',
    );
    const unknown = await unsigned(user, { symbol: 'NOPE/USDC', side: 'Buy', quantity: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(TRADE_MESSAGES.pairUnavailable('NOPE/USDC'));
    const tooMuch = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 1 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatch(/^Insufficient USDC balance\. Required: [\d.]+, Available: 10$/);
    const emailOnly = await registerUser(app);
    const noWallet = await call(app, {
      method: 'POST',
      url: '/api/trading/get-unsigned-transaction',
      headers: bearer(emailOnly.token),
      payload: { symbol: 'SOL/USDC', side: 'Buy', quantity: 1 },
    });
    expect(noWallet.status).toBe(400);
    expect(noWallet.body.error).toBe(TRADE_MESSAGES.walletNotFoundToTrade);
  });

  it('escrows a limit buy below the market, keeps it Pending, and refunds it on cancel', async () => {
    const user = await trader();
    const before = await balances(user);
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 1,
      price: 1,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data.order).toMatchObject({
      status: 'Pending',
      order_type: 'Limit',
      price: 1,
      id: built.order_id,
    });
    const escrowed = await balances(user);
    expect(before.usdc_balance - escrowed.usdc_balance).toBe(1);

    await app.keeper!.tick();
    const orders = await call<TSpotOrder[]>(app, {
      method: 'GET',
      url: '/api/trading/orders',
      headers: bearer(user.token),
    });
    expect(orders.body.data[0]).toMatchObject({ id: built.order_id, status: 'Pending' });

    const cancelled = await call<TSpotOrder>(app, {
      method: 'POST',
      url: `/api/trading/orders/${built.order_id}/cancel`,
      headers: bearer(user.token),
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'Cancelled',
      settlement_tx_hash: expect.any(String),
    });
    expect((await balances(user)).usdc_balance).toBe(before.usdc_balance);
    const twice = await call(app, {
      method: 'POST',
      url: `/api/trading/orders/${built.order_id}/cancel`,
      headers: bearer(user.token),
    });
    expect(twice.status).toBe(409);
  });

  it('fills a crossed limit order through the keeper at the limit price', async () => {
    const user = await trader();
    const book = await call<TOrderBook>(app, { method: 'GET', url: '/api/trading/orderbook/SOL%2FUSDC' });
    const limit = Math.ceil(book.body.data.sells[0]!.price * 1.01);
    const before = await balances(user);
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 2,
      price: limit,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    await app.keeper!.tick();
    const orders = await call<TSpotOrder[]>(app, {
      method: 'GET',
      url: '/api/trading/orders',
      headers: bearer(user.token),
    });
    const filled = orders.body.data.find((order) => order.id === built.order_id)!;
    expect(filled).toMatchObject({ status: 'Filled', filled_quantity: 2, average_fill_price: limit });
    const after = await balances(user);
    expect(before.usdc_balance - after.usdc_balance).toBe(2 * limit);
    expect(after.sol_balance - before.sol_balance).toBeGreaterThan(1.99);
    const trades = await call<TTrade[]>(app, {
      method: 'GET',
      url: '/api/trading/trades',
      headers: bearer(user.token),
    });
    expect(trades.body.data[0]).toMatchObject({ order_type: 'Limit', price: limit, quantity: 2 });
  });

  it('serves the maker ladder and a suggestion from chain balances', async () => {
    const book = await call<TOrderBook>(app, { method: 'GET', url: '/api/trading/orderbook/SOL-USDC' });
    expect(book.status, JSON.stringify(book.body)).toBe(200);
    const { buys, sells, mid_price: mid } = book.body.data;
    expect(buys[0]!.price).toBeLessThan(mid);
    expect(sells[0]!.price).toBeGreaterThan(mid);
    const user = await trader();
    const suggestion = await call<TSuggestion>(app, {
      method: 'POST',
      url: '/api/trading/suggestion',
      headers: bearer(user.token),
      payload: { symbol: 'SOL/USDC' },
    });
    expect(suggestion.status).toBe(200);
    expect(suggestion.body.data.available_balances).toMatchObject({ SOL: 5, USDC: 2000 });
    expect(suggestion.body.data.suggested_side).toBe('Buy');
  });

  it('reconciles a swap that was sent but not recorded (a crash between send and record)', async () => {
    const user = await trader();
    const built = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.3 });
    const signed = user.wallet.signTransaction(built.body.data.unsigned_transaction);
    // What execute does before a crash: the ticket is claimed with the signed bytes, then sent.
    const { createHash } = await import('node:crypto');
    const { getTransactionDecoder, getSignatureFromTransaction } = await import('@solana/kit');
    const transaction = getTransactionDecoder().decode(Buffer.from(signed, 'base64'));
    const signature = getSignatureFromTransaction(transaction);
    const { createTradingRepository } = await import('../src/modules/trading/trading.repository');
    const repo = createTradingRepository(app.database.db);
    const ticket = await repo.findTicketByMessageHash(
      createHash('sha256')
        .update(transaction.messageBytes as unknown as Uint8Array)
        .digest('hex'),
    );
    expect(await repo.claimTicket(ticket!.id, signature, signed, new Date())).toBe(true);
    await app.services.chain.sendTransaction(signed);

    expect(await app.services.trading.reconcileSent()).toBe(1);
    const recorded = await call<TSpotOrder>(app, {
      method: 'POST',
      url: '/api/trading/spot/order',
      headers: bearer(user.token),
      payload: { tx_hash: signature },
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({ status: 'Filled', tx_hash: signature, filled_quantity: 0.3 });
  });
});
