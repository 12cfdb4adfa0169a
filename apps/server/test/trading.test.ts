import {
  address,
  compileTransaction,
  createNoopSigner,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit';
import {
  findAssociatedTokenPda,
  getCloseAccountInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  getTokenBySymbol,
  MAX_CHART_FILLS,
  MAX_CHART_FILLS_WINDOW_SECONDS,
  TRADE_MESSAGES,
  USDC_MINT,
  type TChartFills,
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
  createClock,
  createTestApp,
  openTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { messageOnLatestBlockhash } from './helpers/cluster-rpc';
import { accountsOf, createRpcFaults, type SendFault } from './helpers/rpc-faults';
import { associatedTokenAddress } from '../src/modules/chain/token-legs';
import { botFills, botRuns, bots, serverTickets } from '../src/db/schema';
import { eq } from 'drizzle-orm';
import { createSolanaWallet, signInWithWallet, type SolanaSigningWallet } from './helpers/wallets';

interface Trader {
  token: string;
  wallet: SolanaSigningWallet;
}

describe('spot trading on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;
  const faults = createRpcFaults();
  /** Sends and polls a lost refund fails: more than its cancel and the reconcile job's looks meanwhile. */
  const LOST_REFUND_FAULTS = 50;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    // The keeper is driven by hand (keeper.tick) so fills happen exactly when a test wants them.
    app = await createTestApp({
      database,
      // A pinned market (seed and start time): the trigger-order tests pick the moves they need from
      // the path ahead, which is then the same on every run.
      clock: createClock(new Date('2026-01-15T12:00:30Z')),
      // The relay's reconcile job runs every 50 ms (2 s in production): the fault tests hold against it.
      env: {
        LIMIT_KEEPER_INTERVAL_MS: '60000',
        MARKET_SEED: 'spot-trading',
        RELAY_RECONCILE_INTERVAL_MS: '50',
      },
      wrapRpcTransport: faults.wrap,
    });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  async function trader(
    funding: { amount_sol?: number; amount_usdc?: number } = {},
  ): Promise<Trader & { userId: string }> {
    const wallet = createSolanaWallet();
    const { status, body } = await signInWithWallet(app, wallet, 'phantom');
    expect(status).toBe(200);
    const token = body.data.token;
    const userId = body.data.user.id;
    const funded = await call(app, {
      method: 'POST',
      url: '/api/wallet/fund',
      headers: bearer(token),
      payload: { amount_sol: 5, amount_usdc: 2000, ...funding },
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    return { token, wallet, userId };
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
    // The execute answer's order (the row its settlement wrote) is the order as recorded.
    expect(recorded.body.data).toEqual(order);
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

  /** A JSON-RPC call straight to the cluster's public /rpc endpoint, bypassing the trading API. */
  async function rpc(method: string, params: unknown[]) {
    const response = await fetch(app.rpcUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as { result?: unknown; error?: { message: string } };
  }

  const holdings = async (user: Trader) => {
    const { sol_balance, usdc_balance } = await balances(user);
    return { sol_balance, usdc_balance };
  };

  it('returns the swap unsigned by the maker: sent straight to /rpc it cannot land, through execute it does', async () => {
    // Given a built swap
    const user = await trader();
    const before = await holdings(user);
    const built = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.1 });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const wire = Buffer.from(built.body.data.unsigned_transaction, 'base64');
    const transaction = getTransactionDecoder().decode(wire);
    // Then no party has signed it yet: the maker signs only at execute time
    expect(Object.keys(transaction.signatures)).toHaveLength(2);
    expect(Object.values(transaction.signatures).every((signature) => signature === null)).toBe(true);

    // When the wallet signs it and sends it to the cluster itself
    const signed = user.wallet.signTransaction(built.body.data.unsigned_transaction);
    const direct = await rpc('sendTransaction', [signed, { encoding: 'base64' }]);
    // Then the cluster refuses it (the maker's signature is missing) and nothing moves
    expect(direct.error, JSON.stringify(direct)).toBeDefined();
    expect(await holdings(user)).toEqual(before);

    // And through the server the same signed transaction settles
    const result = await execute(user, signed);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect((await holdings(user)).usdc_balance).toBeCloseTo(
      before.usdc_balance - built.body.data.quote!.quote_amount,
      6,
    );
  });

  it('refuses a quote executed after its time to live with a retryable error, and a fresh one goes through', async () => {
    const user = await trader();
    const before = await holdings(user);
    const built = await unsigned(user, { symbol: 'SOL/USDC', side: 'Sell', quantity: 0.2 });
    expect(built.status).toBe(200);
    // The user waits to see where the price goes (the default RFQ_QUOTE_TTL_MS is 10 s).
    app.clock.advance(10_001);
    const late = await execute(user, user.wallet.signTransaction(built.body.data.unsigned_transaction));
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect(late.body.code).toBe('TRADING__QUOTE_EXPIRED');
    expect(late.body.error).toBe('Quote expired: the price may have moved. Please try the trade again.');
    expect(await holdings(user)).toEqual(before);

    const { result } = await trade(user, { symbol: 'SOL/USDC', side: 'Sell', quantity: 0.2 });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
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

  /** What the maker quotes for a market order of this size now (built, never executed). */
  async function makerQuote(user: Trader, side: 'Buy' | 'Sell', quantity: number) {
    const built = await unsigned(user, { symbol: 'SOL/USDC', side, quantity });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    return built.body.data.quote!;
  }

  const ordersOf = async (user: Trader) =>
    (
      await call<TSpotOrder[]>(app, {
        method: 'GET',
        url: '/api/trading/orders',
        headers: bearer(user.token),
      })
    ).body.data;

  it("fills a limit buy far above the market at the maker's price, refunding the rest of the escrow", async () => {
    // Given a buy limit 5 % above the maker's ask
    const user = await trader();
    const book = await call<TOrderBook>(app, { method: 'GET', url: '/api/trading/orderbook/SOL%2FUSDC' });
    const limit = Math.ceil(book.body.data.sells[0]!.price * 1.05);
    const before = await balances(user);
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 2,
      price: limit,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(before.usdc_balance - (await balances(user)).usdc_balance).toBe(2 * limit);
    const maker = await makerQuote(user, 'Buy', 2);

    // When the keeper fills it
    await app.keeper!.tick();

    // Then it paid what the maker asks for 2 SOL, not the limit, and got the difference back
    const filled = (await ordersOf(user)).find((order) => order.id === built.order_id)!;
    expect(filled).toMatchObject({ status: 'Filled', filled_quantity: 2, average_fill_price: maker.price });
    expect(filled.receipt).toMatchObject({ quoted_price: limit, filled_price: maker.price });
    const after = await balances(user);
    expect(before.usdc_balance - after.usdc_balance).toBeCloseTo(maker.quote_amount, 6);
    expect(maker.quote_amount).toBeLessThan(2 * limit);
    expect(after.sol_balance - before.sol_balance).toBeGreaterThan(1.99);
    const trades = await call<TTrade[]>(app, {
      method: 'GET',
      url: '/api/trading/trades',
      headers: bearer(user.token),
    });
    expect(trades.body.data[0]).toMatchObject({ order_type: 'Limit', price: maker.price, quantity: 2 });
  });

  it("fills a limit sell far below the market at the maker's bid", async () => {
    const user = await trader();
    const book = await call<TOrderBook>(app, { method: 'GET', url: '/api/trading/orderbook/SOL%2FUSDC' });
    const limit = Math.floor(book.body.data.buys[0]!.price * 0.95);
    const before = await balances(user);
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Sell',
      order_type: 'Limit',
      quantity: 1,
      price: limit,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const maker = await makerQuote(user, 'Sell', 1);
    await app.keeper!.tick();
    const filled = (await ordersOf(user)).find((order) => order.id === built.order_id)!;
    expect(filled).toMatchObject({ status: 'Filled', average_fill_price: maker.price });
    expect((await balances(user)).usdc_balance - before.usdc_balance).toBeCloseTo(maker.quote_amount, 6);
    expect(maker.quote_amount).toBeGreaterThan(limit);
  });

  const ataOf = async (user: Trader, mint: string) =>
    (
      await findAssociatedTokenPda({
        owner: address(user.wallet.address),
        mint: address(mint),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      })
    )[0];
  /** Every static account a wire transaction (base64) names. */
  const accountKeysOfWire = (wireBase64: string) =>
    getCompiledTransactionMessageDecoder()
      .decode(getTransactionDecoder().decode(Buffer.from(wireBase64, 'base64')).messageBytes)
      .staticAccounts.map(String);
  const accountExists = async (account: string) =>
    ((await rpc('getAccountInfo', [account, { encoding: 'base64' }])).result as { value: unknown }).value !==
    null;
  const lamportsOf = async (account: string) =>
    BigInt(((await rpc('getBalance', [account])).result as { value: number }).value);

  /** The wallet closes its (empty) token account of `mint`, getting the rent back: anyone can. */
  async function closeTokenAccount(user: Trader, mint: string) {
    const owner = createNoopSigner(address(user.wallet.address));
    const account = await ataOf(user, mint);
    const message = await messageOnLatestBlockhash(rpc, owner, [
      getCloseAccountInstruction({ account, destination: owner.address, owner }),
    ]);
    const signed = user.wallet.signTransaction(getBase64EncodedWireTransaction(compileTransaction(message)));
    const sent = await rpc('sendTransaction', [signed, { encoding: 'base64' }]);
    expect(sent.error, JSON.stringify(sent)).toBeUndefined();
    await expect.poll(() => accountExists(account), { timeout: 10_000, interval: 50 }).toBe(false);
  }

  it('creates the receiving token account at placement, paid by the trader, and never with escrow rent', async () => {
    // Given a wallet without BONK places a crossing limit buy of BONK for SOL
    const user = await trader({ amount_usdc: 0 });
    const bonk = getTokenBySymbol('BONK')!.mint;
    const bonkAccount = await ataOf(user, bonk);
    expect(await accountExists(bonkAccount)).toBe(false);
    const book = await call<TOrderBook>(app, { method: 'GET', url: '/api/trading/orderbook/BONK%2FSOL' });
    const limit = Number((book.body.data.sells[0]!.price * 1.03).toPrecision(6));
    const { built, result } = await trade(user, {
      symbol: 'BONK/SOL',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 2_000_000,
      price: limit,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    // Then the placing transaction (the wallet pays) opened the account the fill will pay into
    expect(await accountExists(bonkAccount)).toBe(true);

    // When the trader closes that account before the keeper fills
    await closeTokenAccount(user, bonk);
    const escrow = app.keeper!.escrowAddress;
    const [escrowBefore, userBefore] = await Promise.all([
      lamportsOf(escrow),
      lamportsOf(user.wallet.address),
    ]);
    await app.keeper!.tick();

    // Then the keeper does not re-open it with the escrow's lamports: it refunds the order instead,
    // and the escrow pays out exactly the refund plus the network fee
    const order = (await ordersOf(user)).find((row) => row.id === built.order_id)!;
    expect(order.status).toBe('Cancelled');
    expect(await accountExists(bonkAccount)).toBe(false);
    const refund = (await lamportsOf(user.wallet.address)) - userBefore;
    expect(refund).toBeGreaterThan(0n);
    expect(escrowBefore - (await lamportsOf(escrow))).toBe(refund + 5000n);
  });

  it('refuses to cancel into a closed token account instead of paying its rent from the escrow', async () => {
    // Given a limit buy escrowing every USDC of the wallet, whose empty USDC account is then closed
    const user = await trader({ amount_usdc: 2000 });
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 20,
      price: 100,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    await closeTokenAccount(user, USDC_MINT);
    const escrow = app.keeper!.escrowAddress;
    const escrowBefore = await lamportsOf(escrow);

    // When the owner cancels
    const cancelled = await call(app, {
      method: 'POST',
      url: `/api/trading/orders/${built.order_id}/cancel`,
      headers: bearer(user.token),
    });

    // Then the cancel is refused with a clear reason, the order stays Pending and the escrow pays nothing
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(409);
    expect(cancelled.body.code).toBe('TRADING__TOKEN_ACCOUNT_CLOSED');
    expect((await ordersOf(user)).find((row) => row.id === built.order_id)!.status).toBe('Pending');
    expect(await lamportsOf(escrow)).toBe(escrowBefore);
  });

  /**
   * A limit buy resting below the market whose refund was recorded (the order `Settling:cancel`) but
   * never reached the chain: the send was lost before the cluster and the status poll failed, so
   * its verdict is unknown. The faults stay until the caller clears them: the relay's reconcile job
   * asks about the refund too, and could otherwise take the failing poll, or send the refund again
   * and land it, before the test has looked.
   */
  async function orderWithLostRefund() {
    const user = await trader();
    const before = await balances(user);
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 1,
      price: 3,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    // The faults are the refund's (to the user's USDC account), not a background send's.
    const usdcAccount = await associatedTokenAddress(user.wallet.address, USDC_MINT);
    faults.target((wire) => accountsOf(wire).includes(usdcAccount));
    faults.failNextSends(...Array<SendFault>(LOST_REFUND_FAULTS).fill('lost'));
    faults.failStatusPolls(LOST_REFUND_FAULTS);
    const lost = await cancelOrder(user, built.order_id!);
    // The cancel stands (the refund is in flight), and the escrow still holds the funds.
    expect(lost.status, JSON.stringify(lost.body)).toBe(200);
    expect(lost.body.data).toMatchObject({ status: 'Pending', settlement_tx_hash: expect.any(String) });
    expect(before.usdc_balance - (await balances(user)).usdc_balance).toBe(3);
    return { user, before, orderId: built.order_id!, claimed: lost.body.data.settlement_tx_hash! };
  }

  const cancelOrder = (user: Trader, orderId: string) =>
    call<TSpotOrder>(app, {
      method: 'POST',
      url: `/api/trading/orders/${orderId}/cancel`,
      headers: bearer(user.token),
    });

  /** Runs the server tickets' reconcile job until the order reaches `status`. */
  async function reconcileUntil(user: Trader, orderId: string, status: TSpotOrder['status']) {
    await vi.waitUntil(
      async () => {
        await app.services.relay.server.reconcile();
        return (await ordersOf(user)).find((row) => row.id === orderId)!.status === status;
      },
      { timeout: 15_000, interval: 20 },
    );
    return (await ordersOf(user)).find((row) => row.id === orderId)!;
  }

  it('refuses the loser of two cancels at once with 409 when its refund is simulated after the first landed', async () => {
    // Given a limit buy escrowing more USDC than the escrow holds for every other pending order: once
    // its refund has landed, a second refund of it no longer passes simulation
    const escrow = app.keeper!.escrowAddress;
    const escrowUsdc = async () =>
      (await app.services.chain.getTokenBalances(escrow)).get(USDC_MINT)?.amount ?? 0n;
    const othersEscrowed = await escrowUsdc();
    const quantity = Number(othersEscrowed / 1_000_000n) + 1000;
    const user = await trader({ amount_usdc: quantity });
    const before = await balances(user);
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity,
      price: 1,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(await escrowUsdc()).toBe(othersEscrowed + BigInt(quantity) * 1_000_000n);
    const refundPaysInto = String(await ataOf(user, USDC_MINT));

    // When the owner cancels it twice at once, and the loser's refund is simulated only after the
    // winner's landed (both read the order Pending; each is held at its simulation)
    const [first, second] = faults.hold(
      2,
      (method, params) =>
        method === 'simulateTransaction' && accountKeysOfWire(String(params[0])).includes(refundPaysInto),
    );
    const cancels = [cancelOrder(user, built.order_id!), cancelOrder(user, built.order_id!)];
    await Promise.all([first!.reached, second!.reached]);
    first!.release();
    const winner = await Promise.race(cancels);
    second!.release();
    const answers = await Promise.all(cancels);

    // Then the winner refunded the escrow once; the loser is told the order is no longer cancellable
    // (not that a transaction failed on chain, which invites a retry), and nothing else moved
    expect(winner.status, JSON.stringify(winner.body)).toBe(200);
    expect(winner.body.data).toMatchObject({ id: built.order_id, status: 'Cancelled' });
    const loser = answers.find((answer) => answer !== winner)!;
    expect(loser.status, JSON.stringify(loser.body)).toBe(409);
    expect(loser.body.code).toBe('TRADING__ORDER_NOT_CANCELLABLE');
    expect((await balances(user)).usdc_balance).toBe(before.usdc_balance);
    expect(await escrowUsdc()).toBe(othersEscrowed);
    expect((await ordersOf(user)).find((row) => row.id === built.order_id)!.status).toBe('Cancelled');
  });

  it("lands an order's lost refund once: the same refund, sent again while it can land", async () => {
    const { user, before, orderId, claimed } = await orderWithLostRefund();
    await faults.clear();
    // When the owner cancels again while the recorded refund's blockhash is still valid
    const again = await cancelOrder(user, orderId);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // Then the recorded refund itself lands and is recorded (never a second one)
    const cancelled = await reconcileUntil(user, orderId, 'Cancelled');
    expect(cancelled.settlement_tx_hash).toBe(claimed);
    expect((await balances(user)).usdc_balance).toBe(before.usdc_balance);
    expect((await cancelOrder(user, orderId)).status).toBe(409);
  });

  it('returns an order whose lost refund expired unseen to Pending, and a new cancel refunds it', async () => {
    const { user, before, orderId, claimed } = await orderWithLostRefund();
    // The refund is still lost while its blockhash expires
    await app.cluster!.advanceSlots(200);
    await faults.clear();
    const pending = await reconcileUntil(user, orderId, 'Pending');
    expect(pending.settlement_tx_hash ?? null).toBeNull();
    const cancelled = await cancelOrder(user, orderId);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe('Cancelled');
    expect(cancelled.body.data.settlement_tx_hash).not.toBe(claimed);
    expect((await balances(user)).usdc_balance).toBe(before.usdc_balance);
  });

  it('settles a refund claimed before settlements were tickets (no ticket records it) from the chain', async () => {
    const { user, before, orderId, claimed } = await orderWithLostRefund();
    await faults.clear();
    // As an order claimed by the keeper before server tickets: Settling, with no ticket
    await app.database.db.delete(serverTickets).where(eq(serverTickets.signature, claimed));
    await vi.waitUntil(
      async () => {
        await app.keeper!.tick();
        return (await ordersOf(user)).find((row) => row.id === orderId)!.status === 'Cancelled';
      },
      { timeout: 15_000, interval: 20 },
    );
    expect((await ordersOf(user)).find((row) => row.id === orderId)!.settlement_tx_hash).toBe(claimed);
    expect((await balances(user)).usdc_balance).toBe(before.usdc_balance);
  });

  it('fills a limit order once when the answer of its fill is lost after the cluster took it', async () => {
    // Given other users' funds in the escrow (a buy resting far below the market)
    const bystander = await trader();
    const resting = await trade(bystander, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 200,
      price: 3,
    });
    expect(resting.result.status, JSON.stringify(resting.result.body)).toBe(200);
    const escrow = app.keeper!.escrowAddress;
    const escrowUsdc = async () =>
      (await app.services.chain.getTokenBalances(escrow)).get(USDC_MINT)?.amount ?? 0n;
    const escrowBefore = await escrowUsdc();
    // And a buy limit above the maker's ask
    const user = await trader();
    const book = await call<TOrderBook>(app, { method: 'GET', url: '/api/trading/orderbook/SOL%2FUSDC' });
    const limit = Math.ceil(book.body.data.sells[0]!.price * 1.05);
    const before = await balances(user);
    const { built, result } = await trade(user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 0.5,
      price: limit,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const maker = await makerQuote(user, 'Buy', 0.5);

    // When the cluster takes the fill but its answer is lost, and the next status polls fail
    faults.failNextSends('drop');
    faults.failStatusPolls(2);
    await app.keeper!.tick();
    await faults.clear();
    // Then the next passes record that one fill and never fill the order again
    await vi.waitUntil(
      async () => {
        await app.keeper!.tick();
        return (await ordersOf(user)).find((row) => row.id === built.order_id)!.status === 'Filled';
      },
      { timeout: 15_000, interval: 20 },
    );
    await app.keeper!.tick();
    const trades = await call<TTrade[]>(app, {
      method: 'GET',
      url: '/api/trading/trades',
      headers: bearer(user.token),
    });
    expect(trades.body.data.filter((row) => row.order_type === 'Limit')).toHaveLength(1);
    const after = await balances(user);
    expect(before.usdc_balance - after.usdc_balance).toBeCloseTo(maker.quote_amount, 6);
    expect(after.sol_balance - before.sol_balance).toBeGreaterThan(0.49);
    expect(after.sol_balance - before.sol_balance).toBeLessThan(0.51);
    // And the escrow paid nothing out of the bystander's funds
    expect(await escrowUsdc()).toBe(escrowBefore);
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
    // Sell when the 5 SOL held are worth more than the 2,000 USDC (the simulated price wanders).
    const price = suggestion.body.data.price!;
    expect(price).toBeGreaterThan(0);
    expect(suggestion.body.data.suggested_side).toBe(5 * price > 2000 ? 'Sell' : 'Buy');
  });

  it('reconciles a swap that was sent but not recorded (a crash between send and record)', async () => {
    const user = await trader();
    const built = await unsigned(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.3 });
    const signed = user.wallet.signTransaction(built.body.data.unsigned_transaction);
    // What execute does before a crash: the ticket is claimed with the signed bytes, then sent.
    const { createHash } = await import('node:crypto');
    const {
      getBase64EncodedWireTransaction,
      getSignatureFromTransaction,
      getTransactionDecoder,
      partiallySignTransaction,
    } = await import('@solana/kit');
    const transaction = getTransactionDecoder().decode(Buffer.from(signed, 'base64'));
    const signature = getSignatureFromTransaction(transaction);
    const { createRelayRepository } = await import('../src/modules/relay/relay.repository');
    const repo = createRelayRepository(app.database.db);
    const ticket = await repo.findTicketByMessageHash(
      createHash('sha256')
        .update(transaction.messageBytes as unknown as Uint8Array)
        .digest('hex'),
    );
    // Execute co-signs for the maker (its quote still holds) before it claims and sends.
    const cosigned = getBase64EncodedWireTransaction(
      await partiallySignTransaction([app.cluster!.marketMaker.keyPair], transaction),
    );
    expect(await repo.claimTicket(ticket!.id, signature, cosigned, new Date())).toBe(true);
    await app.services.chain.sendTransaction(cosigned);

    expect(await app.services.relay.reconcileSent()).toBe(1);
    const recorded = await call<TSpotOrder>(app, {
      method: 'POST',
      url: '/api/trading/spot/order',
      headers: bearer(user.token),
      payload: { tx_hash: signature },
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({ status: 'Filled', tx_hash: signature, filled_quantity: 0.3 });
  });

  describe('GET /api/trading/fills (chart markers)', () => {
    const fills = (user: Trader, query: string) =>
      call<TChartFills>(app, {
        method: 'GET',
        url: `/api/trading/fills?${query}`,
        headers: bearer(user.token),
      });
    /** Now on the app's clock (this file pins it, so its simulated market is the same every run). */
    const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);

    /** A stopped paper run of a bot on `symbol` with one fill per entry (amounts in base units). */
    async function seedBotRun(
      userId: string,
      symbol: string,
      name: string,
      entries: { side: 'Buy' | 'Sell'; base: bigint; quote: bigint; time: number }[],
    ) {
      const db = app.database.db;
      const [bot] = await db
        .insert(bots)
        .values({ userId, name, description: '', strategyType: 'sma_crossover', config: { symbol } })
        .returning();
      const started = new Date((entries[0]!.time - 60) * 1000);
      const [run] = await db
        .insert(botRuns)
        .values({
          botId: bot!.id,
          userId,
          mode: 'test',
          status: 'stopped',
          strategyType: 'sma_crossover',
          config: { symbol },
          initialCash: '1000000000',
          quoteUsdPrice: '1',
          baseDecimals: 9,
          quoteDecimals: 6,
          startedAt: started,
          endsAt: new Date(started.getTime() + 3_600_000),
          stoppedAt: new Date((entries.at(-1)!.time + 60) * 1000),
          firstCandle: entries[0]!.time - 60,
        })
        .returning();
      await db.insert(botFills).values(
        entries.map((entry, seq) => ({
          runId: run!.id,
          seq,
          botId: bot!.id,
          time: new Date(entry.time * 1000),
          side: entry.side,
          baseAmount: entry.base.toString(),
          quoteAmount: entry.quote.toString(),
          reason: 'signal',
        })),
      );
    }

    it("answers the caller's own spot and bot fills on the pair in the window, and nobody else's", async () => {
      // Given: a trader who bought 0.25 SOL and whose bot traded SOL/USDC (and another bot BONK/SOL)
      const user = await trader();
      const from = nowSeconds() - 3600;
      const { result } = await trade(user, { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.25 });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      const filledAt = nowSeconds();
      await seedBotRun(user.userId, 'sol-usdc', 'Grid SOL', [
        { side: 'Buy', base: 2_000_000_000n, quote: 300_500_000n, time: filledAt - 600 },
        { side: 'Sell', base: 2_000_000_000n, quote: 310_000_000n, time: filledAt - 300 },
      ]);
      await seedBotRun(user.userId, 'BONK/SOL', 'Bonk bot', [
        { side: 'Buy', base: 1_000_000_000n, quote: 1_000_000n, time: filledAt - 500 },
      ]);
      const other = await trader();

      // When: each asks for SOL/USDC over the last hour
      const own = await fills(user, `pair=SOL/USDC&from=${from}&to=${filledAt + 5}`);
      const theirs = await fills(other, `pair=SOL/USDC&from=${from}&to=${filledAt + 5}`);

      // Then: the trader sees the spot fill and both bot fills (newest first, labelled), the other none
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      expect(own.body.data).toMatchObject({ pair: 'SOL/USDC', from, truncated: false });
      expect(own.body.data.fills.map((fill) => [fill.source, fill.side, fill.label])).toEqual([
        ['spot', 'Buy', 'Spot'],
        ['bot', 'Sell', 'Bot "Grid SOL" (paper)'],
        ['bot', 'Buy', 'Bot "Grid SOL" (paper)'],
      ]);
      const [spot, botSell, botBuy] = own.body.data.fills;
      expect(spot!.quantity).toBe('0.25');
      expect(Number(spot!.price)).toBeGreaterThan(0);
      expect(spot!.time).toBeGreaterThanOrEqual(from);
      expect(spot!.time).toBeLessThanOrEqual(filledAt);
      // The bot's price is the quote it paid or got per token, exact: 300.5 / 2, 310 / 2.
      expect(botBuy).toMatchObject({ price: '150.25', quantity: '2', time: filledAt - 600 });
      expect(botSell).toMatchObject({ price: '155', quantity: '2', time: filledAt - 300 });
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.fills).toEqual([]);

      // A window that ends before the fills holds none of them; another pair holds only its own.
      const earlier = await fills(user, `pair=SOL/USDC&from=${from}&to=${filledAt - 700}`);
      expect(earlier.body.data.fills).toEqual([]);
      const bonk = await fills(user, `pair=BONK/SOL&from=${from}&to=${filledAt + 5}`);
      expect(bonk.body.data.fills.map((fill) => fill.label)).toEqual(['Bot "Bonk bot" (paper)']);
    });

    it('answers the newest 500 fills of a busier window and says the rest were left out', async () => {
      // Given: a bot run with 501 fills a minute apart, the oldest first
      const user = await trader();
      const last = nowSeconds() - 60;
      await seedBotRun(
        user.userId,
        'SOL/USDC',
        'Scalper',
        Array.from({ length: MAX_CHART_FILLS + 1 }, (_, index) => ({
          side: index % 2 ? ('Sell' as const) : ('Buy' as const),
          base: 1_000_000_000n,
          quote: 150_000_000n,
          time: last - (MAX_CHART_FILLS - index) * 60,
        })),
      );
      const window = `from=${last - 86_400}&to=${last}`;

      // When / Then: the newest 500, newest first, and `truncated`
      const busy = await fills(user, `pair=SOL/USDC&${window}`);
      expect(busy.status).toBe(200);
      expect(busy.body.data.truncated).toBe(true);
      expect(busy.body.data.fills).toHaveLength(MAX_CHART_FILLS);
      expect(busy.body.data.fills[0]!.time).toBe(last);
      expect(busy.body.data.fills.at(-1)!.time).toBe(last - (MAX_CHART_FILLS - 1) * 60);
      // A window that starts after the oldest holds exactly 500: nothing is left out.
      const exact = await fills(user, `pair=SOL/USDC&from=${last - (MAX_CHART_FILLS - 1) * 60}&to=${last}`);
      expect(exact.body.data).toMatchObject({ truncated: false });
      expect(exact.body.data.fills).toHaveLength(MAX_CHART_FILLS);
    });

    it('refuses bad input with 400 and answers nothing without a session', async () => {
      const user = await trader();
      const to = nowSeconds();
      for (const query of [
        `from=${to - 60}&to=${to}`,
        `pair=&from=${to - 60}&to=${to}`,
        `pair=${'X'.repeat(141)}&from=${to - 60}&to=${to}`,
        `pair=SOL/USDC&from=abc&to=${to}`,
        `pair=SOL/USDC&from=${to}&to=${to - 60}`,
        `pair=SOL/USDC&from=-5&to=${to}`,
        `pair=SOL/USDC&from=1.5&to=${to}`,
        `pair=SOL/USDC&from=${to - MAX_CHART_FILLS_WINDOW_SECONDS - 1}&to=${to}`,
      ]) {
        const refused = await fills(user, query);
        expect(refused.status, query).toBe(400);
        expect(refused.body.error, query).toEqual(expect.any(String));
      }
      const unknown = await fills(user, `pair=NOTATOKEN123/USDC&from=${to - 60}&to=${to}`);
      expect(unknown.status).toBeGreaterThanOrEqual(400);
      expect(unknown.status).toBeLessThan(500);
      const anonymous = await call(app, {
        method: 'GET',
        url: `/api/trading/fills?pair=SOL/USDC&from=${to - 60}&to=${to}`,
      });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('take-profit, stop-loss, trailing stops and one-cancels-the-other', () => {
    const MINUTE = 60_000;
    const solUsdc = () => app.services.trading.resolvePair('SOL/USDC');
    const midNow = async () => Number(await app.services.trading.midPriceOf(await solUsdc()));

    /** The SOL/USDC mid `minutes` from now on the app's clock (the simulated market is a function of time). */
    async function midIn(minutes: number): Promise<number> {
      app.clock.advance(minutes * MINUTE);
      try {
        return await midNow();
      } finally {
        app.clock.advance(-minutes * MINUTE);
      }
    }

    /** The first minute ahead at which the mid has moved past `now × (1 ± move)` in `direction`. */
    async function nextMove(direction: 'up' | 'down', move: number) {
      const now = await midNow();
      for (let minutes = 1; minutes <= 360; minutes++) {
        const mid = await midIn(minutes);
        if (direction === 'up' ? mid > now * (1 + move) : mid < now * (1 - move))
          return { now, minutes, mid };
      }
      throw new Error(`SOL/USDC never moved ${direction} ${move} within 6 hours`);
    }

    const place = (user: Trader, order: object) =>
      call<TUnsignedTransaction | TSpotOrder>(app, {
        method: 'POST',
        url: '/api/trading/spot/order',
        headers: bearer(user.token),
        payload: { symbol: 'SOL/USDC', ...order },
      });

    /** Places a trigger order: the wallet signs the escrow, execute lands it; the order is Pending. */
    async function placeTrigger(user: Trader, order: object): Promise<TSpotOrder> {
      const built = await place(user, order);
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      const unsignedTx = built.body.data as TUnsignedTransaction;
      const result = await execute(user, user.wallet.signTransaction(unsignedTx.unsigned_transaction));
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body.data.order).toMatchObject({ id: unsignedTx.order_id, status: 'Pending' });
      return result.body.data.order!;
    }

    const orderOf = async (user: Trader, id: string) => (await ordersOf(user)).find((row) => row.id === id)!;

    it('refuses triggers on the wrong side of the market, missing or out-of-range fields, and bad oco_with', async () => {
      const user = await trader();
      const mid = await midNow();
      const wrongSide = await place(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.1,
        trigger_price: mid * 1.05,
      });
      expect(wrongSide.status).toBe(400);
      expect(wrongSide.body.code).toBe('TRADING__TRIGGER_WRONG_SIDE');
      expect(wrongSide.body.error).toMatch(
        /^A stop-loss sell triggers when the price goes below trigger_price: SOL\/USDC is at [\d.]+, so trigger_price must be below it$/,
      );
      const tpBelow = await place(user, {
        order_type: 'take_profit',
        side: 'Sell',
        amount: 0.1,
        trigger_price: mid * 0.95,
      });
      expect(tpBelow.body.code).toBe('TRADING__TRIGGER_WRONG_SIDE');
      const noTrigger = await place(user, { order_type: 'take_profit', side: 'Sell', amount: 0.1 });
      expect(noTrigger.status).toBe(400);
      expect(noTrigger.body.error).toBe(
        'trigger_price: trigger_price is required for take_profit and stop_loss orders',
      );
      for (const trail of [0.05, 51]) {
        const refused = await place(user, {
          order_type: 'trailing_stop',
          side: 'Sell',
          amount: 0.1,
          trail_percent: trail,
        });
        expect(refused.status, String(trail)).toBe(400);
        expect(refused.body.error).toMatch(/^trail_percent: trail_percent must be at (least 0.1|most 50)$/);
      }
      const badType = await place(user, { order_type: 'stop_limit', side: 'Sell', amount: 0.1 });
      expect(badType.status).toBe(400);

      // oco_with: another user's open order, a cancelled order of one's own, an unknown id
      const other = await trader();
      const othersOrder = await placeTrigger(other, {
        order_type: 'take_profit',
        side: 'Sell',
        amount: 0.1,
        trigger_price: mid * 1.5,
      });
      const stranger = await place(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.1,
        trigger_price: mid * 0.5,
        oco_with: othersOrder.id,
      });
      expect(stranger.status).toBe(400);
      expect(stranger.body).toMatchObject({
        code: 'TRADING__OCO_INVALID',
        error: 'oco_with: you have no order with this id',
      });
      const own = await placeTrigger(user, {
        order_type: 'take_profit',
        side: 'Sell',
        amount: 0.1,
        trigger_price: mid * 1.5,
      });
      expect((await cancelOrder(user, own.id)).status).toBe(200);
      const closed = await place(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.1,
        trigger_price: mid * 0.5,
        oco_with: own.id,
      });
      expect(closed.body).toMatchObject({
        code: 'TRADING__OCO_INVALID',
        error: 'oco_with: that order is not open (it is Cancelled)',
      });
      // Nothing was escrowed by a refusal: the other user's order is untouched and still theirs
      expect((await orderOf(other, othersOrder.id)).status).toBe('Pending');
    });

    it('fires a stop-loss sell when the mid falls through it, at the maker price within the bound', async () => {
      const user = await trader();
      const { now, minutes } = await nextMove('down', 0.002);
      const trigger = Number((now * 0.999).toFixed(4));
      const before = await balances(user);
      const order = await placeTrigger(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.5,
        trigger_price: trigger,
      });
      expect(order).toMatchObject({
        order_type: 'StopLoss',
        trigger_price: trigger,
        stop_price: trigger,
        max_slippage_bps: 100,
      });
      expect(before.sol_balance - (await balances(user)).sol_balance).toBeGreaterThan(0.5);

      await app.keeper!.tick();
      expect((await orderOf(user, order.id)).status).toBe('Pending');

      app.clock.advance(minutes * MINUTE);
      const escrowedAt = await balances(user);
      const maker = await makerQuote(user, 'Sell', 0.5);
      await app.keeper!.tick();
      const filled = await orderOf(user, order.id);
      expect(filled).toMatchObject({
        status: 'Filled',
        filled_quantity: 0.5,
        average_fill_price: maker.price,
      });
      expect(filled.receipt).toMatchObject({ quoted_price: trigger, filled_price: maker.price });
      expect(maker.price).toBeGreaterThanOrEqual(trigger * 0.99);
      expect((await balances(user)).usdc_balance - escrowedAt.usdc_balance).toBeCloseTo(
        maker.quote_amount,
        6,
      );
      const trades = await call<TTrade[]>(app, {
        method: 'GET',
        url: '/api/trading/trades',
        headers: bearer(user.token),
      });
      expect(trades.body.data).toEqual([
        expect.objectContaining({ order_type: 'StopLoss', quantity: 0.5, price: maker.price }),
      ]);
      // Exactly once: later passes never settle it again
      await app.keeper!.tick();
      expect((await orderOf(user, order.id)).settlement_tx_hash).toBe(filled.settlement_tx_hash);
    });

    it('fires a stop-loss on the next keeper pass after the dev price hook moves SOL down, without waiting for the market', async () => {
      const user = await trader();
      const now = await midNow();
      const trigger = Number((now * 0.995).toFixed(4));
      const order = await placeTrigger(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.5,
        trigger_price: trigger,
      });
      await app.keeper!.tick();
      expect((await orderOf(user, order.id)).status).toBe('Pending');

      // The clock stands still: only the shift moves the price
      const shifted = await call(app, {
        method: 'POST',
        url: '/api/dev/market/shift',
        payload: { token: 'SOL', percent: -1 },
      });
      try {
        expect(shifted.status, JSON.stringify(shifted.body)).toBe(200);
        expect(await midNow()).toBeCloseTo(now * 0.99, 2);
        await app.keeper!.tick();
        const filled = await orderOf(user, order.id);
        expect(filled).toMatchObject({ status: 'Filled', filled_quantity: 0.5 });
        expect(filled.average_fill_price!).toBeLessThanOrEqual(trigger);
        expect(filled.average_fill_price!).toBeGreaterThanOrEqual(trigger * 0.99);
      } finally {
        await call(app, {
          method: 'POST',
          url: '/api/dev/market/shift',
          payload: { token: 'SOL', reset: true },
        });
      }
    });

    it('fires a take-profit sell when the mid rises to it', async () => {
      const user = await trader();
      const { now, minutes } = await nextMove('up', 0.002);
      const trigger = Number((now * 1.001).toFixed(4));
      const order = await placeTrigger(user, {
        order_type: 'take_profit',
        side: 'Sell',
        amount: 0.25,
        trigger_price: trigger,
      });
      app.clock.advance(minutes * MINUTE);
      const maker = await makerQuote(user, 'Sell', 0.25);
      await app.keeper!.tick();
      expect(await orderOf(user, order.id)).toMatchObject({
        status: 'Filled',
        order_type: 'TakeProfit',
        average_fill_price: maker.price,
      });
    });

    it('a buy stop escrows its bound, fires on a rise and returns what the fill did not use', async () => {
      const user = await trader();
      const { now, minutes } = await nextMove('up', 0.002);
      const trigger = Number((now * 1.001).toFixed(4));
      const before = await balances(user);
      const order = await placeTrigger(user, {
        order_type: 'stop_loss',
        side: 'Buy',
        amount: 1,
        trigger_price: trigger,
        max_slippage_bps: 200,
      });
      // The escrow is what the bound can cost: 1 SOL at the trigger + 2 %
      const escrowed = before.usdc_balance - (await balances(user)).usdc_balance;
      expect(escrowed).toBeCloseTo(trigger * 1.02, 5);
      app.clock.advance(minutes * MINUTE);
      const maker = await makerQuote(user, 'Buy', 1);
      await app.keeper!.tick();
      expect(await orderOf(user, order.id)).toMatchObject({
        status: 'Filled',
        average_fill_price: maker.price,
      });
      expect(before.usdc_balance - (await balances(user)).usdc_balance).toBeCloseTo(maker.quote_amount, 6);
    });

    it('OCO: the stop-loss fires, the take-profit is cancelled once and its escrow refunded', async () => {
      const user = await trader();
      const { now, minutes } = await nextMove('down', 0.002);
      const takeProfit = await placeTrigger(user, {
        order_type: 'take_profit',
        side: 'Sell',
        amount: 0.5,
        trigger_price: Number((now * 1.5).toFixed(2)),
      });
      const stopLoss = await placeTrigger(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.5,
        trigger_price: Number((now * 0.999).toFixed(4)),
        oco_with: takeProfit.id,
      });
      const listed = await ordersOf(user);
      expect(listed.find((row) => row.id === takeProfit.id)!.oco_with).toBe(stopLoss.id);
      expect(listed.find((row) => row.id === stopLoss.id)!.oco_with).toBe(takeProfit.id);
      // A third order cannot join the pair
      const third = await place(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.1,
        trigger_price: Number((now * 0.5).toFixed(2)),
        oco_with: takeProfit.id,
      });
      expect(third.body).toMatchObject({
        code: 'TRADING__OCO_INVALID',
        error: 'oco_with: that order is already linked to another order',
      });

      app.clock.advance(minutes * MINUTE);
      const before = await balances(user);
      const maker = await makerQuote(user, 'Sell', 0.5);
      await app.keeper!.tick();
      const after = await ordersOf(user);
      const sl = after.find((row) => row.id === stopLoss.id)!;
      const tp = after.find((row) => row.id === takeProfit.id)!;
      expect(sl.status).toBe('Filled');
      expect(tp).toMatchObject({ status: 'Cancelled', settlement_tx_hash: expect.any(String) });
      const balance = await balances(user);
      // The SL's proceeds and the TP's 0.5 SOL back (the escrow pays the refund's fee)
      expect(balance.usdc_balance - before.usdc_balance).toBeCloseTo(maker.quote_amount, 6);
      expect(balance.sol_balance - before.sol_balance).toBeCloseTo(0.5, 9);
      await app.keeper!.tick();
      expect((await orderOf(user, takeProfit.id)).settlement_tx_hash).toBe(tp.settlement_tx_hash);
      expect((await cancelOrder(user, takeProfit.id)).status).toBe(409);
    });

    it('OCO with both legs crossed and two keeper passes racing: one leg fills, the other is refunded once', async () => {
      const user = await trader();
      const { now, minutes } = await nextMove('down', 0.002);
      // A limit sell far under the market (it crosses at once) and a stop the move will cross, linked
      const book = await call<TOrderBook>(app, { method: 'GET', url: '/api/trading/orderbook/SOL%2FUSDC' });
      const { built, result } = await trade(user, {
        symbol: 'SOL/USDC',
        side: 'Sell',
        order_type: 'Limit',
        quantity: 0.5,
        price: Number((book.body.data.buys[0]!.price * 0.9).toFixed(2)),
      });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      const limit = built.order_id!;
      const stopLoss = await placeTrigger(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.5,
        trigger_price: Number((now * 0.999).toFixed(4)),
        oco_with: limit,
      });

      app.clock.advance(minutes * MINUTE);
      const before = await balances(user);
      const maker = await makerQuote(user, 'Sell', 0.5);
      // Each pass tries both legs: whichever claims first fills; the other pass finds it claimed,
      // and its partner refused (the pair is locked), then refunded once.
      await Promise.all([app.keeper!.tick(), app.keeper!.tick()]);
      const legs = (await ordersOf(user)).filter((row) => row.id === limit || row.id === stopLoss.id);
      expect(legs.map((row) => row.status).sort()).toEqual(['Cancelled', 'Filled']);
      const balance = await balances(user);
      // One leg's proceeds and the other's 0.5 SOL back: nothing paid twice
      expect(balance.usdc_balance - before.usdc_balance).toBeCloseTo(maker.quote_amount, 6);
      expect(balance.sol_balance - before.sol_balance).toBeCloseTo(0.5, 9);
      const trades = await call<TTrade[]>(app, {
        method: 'GET',
        url: '/api/trading/trades',
        headers: bearer(user.token),
      });
      expect(trades.body.data).toHaveLength(1);
      await Promise.all([app.keeper!.tick(), app.keeper!.tick()]);
      for (const leg of legs) {
        expect((await orderOf(user, leg.id)).settlement_tx_hash).toBe(leg.settlement_tx_hash);
        expect((await cancelOrder(user, leg.id)).status).toBe(409);
      }
      expect(await balances(user)).toEqual(balance);
    });

    it('keeps a triggered order open with a reason when the maker cannot fill within its slippage bound', async () => {
      const user = await trader();
      const { now, minutes } = await nextMove('down', 0.002);
      const trigger = Number((now * 0.999).toFixed(4));
      const order = await placeTrigger(user, {
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 0.5,
        trigger_price: trigger,
        max_slippage_bps: 0,
      });
      app.clock.advance(minutes * MINUTE);
      const before = await balances(user);
      await app.keeper!.tick();
      const kept = await orderOf(user, order.id);
      expect(kept.status).toBe('Pending');
      expect(kept.settlement_tx_hash).toBeNull();
      expect(kept.status_reason).toMatch(
        /^Triggered at [\d.]+, but the market fills [\d.]+: outside the 0 bps slippage bound \(at least [\d.]+\)\. Kept open until the market is back within it\.$/,
      );
      expect(await balances(user)).toEqual(before);
      const cancelled = await cancelOrder(user, order.id);
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect((await balances(user)).sol_balance - before.sol_balance).toBeCloseTo(0.5, 9);
    });

    it('a trailing stop follows the high and fires on the pull-back from it', async () => {
      const user = await trader();
      const trail = 0.1;
      // Start where the next minute rises, so the stop follows the price before it can fire
      let start = 0;
      while ((await midIn(start + 1)) <= (await midIn(start))) start++;
      app.clock.advance(start * MINUTE);
      const placedAt = await midNow();
      const order = await placeTrigger(user, {
        order_type: 'trailing_stop',
        side: 'Sell',
        amount: 0.5,
        trail_percent: trail,
      });
      expect(order).toMatchObject({ order_type: 'TrailingStop', trail_percent: trail });
      expect(order.trail_reference_price).toBeCloseTo(placedAt, 4);
      expect(order.trigger_price).toBeCloseTo(placedAt * (1 - trail / 100), 4);
      let high = placedAt;
      let raised = 0;
      for (let step = 1; step <= 360; step++) {
        app.clock.advance(MINUTE);
        const mid = await midNow();
        await app.keeper!.tick();
        const row = await orderOf(user, order.id);
        if (row.status === 'Filled') {
          expect(mid).toBeLessThanOrEqual(high * (1 - trail / 100));
          expect(raised).toBeGreaterThan(0);
          expect(row.receipt!.quoted_price).toBeCloseTo(high * (1 - trail / 100), 4);
          return;
        }
        if (mid > high) {
          high = mid;
          raised++;
        }
        expect(row.status).toBe('Pending');
        expect(row.trail_reference_price).toBeCloseTo(high, 4);
        expect(row.trigger_price).toBeCloseTo(high * (1 - trail / 100), 4);
      }
      throw new Error('the trailing stop never fired');
    });
  });
});
