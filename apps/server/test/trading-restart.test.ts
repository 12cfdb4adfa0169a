import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSpotOrder, TTrade, TUnsignedTransaction, TWalletBalance } from '@solterm/contracts';
import { createRelayRepository } from '../src/modules/relay/relay.repository';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createSolanaWallet, signInWithWallet } from './helpers/wallets';

/**
 * A restart on the same DATA_DIR (ledger, keys) and database: a swap sent just before the process
 * stopped, and never recorded, is reconciled from the chain when the next process starts; a pending
 * limit order and every balance are still there and agree with the chain.
 */
describe('trading across a server restart', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-restart-'));
  });

  afterAll(async () => {
    await database?.cleanup();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  // One clock and a pinned market across the restarts, so the trailing stop's path is known.
  const clock = createClock(new Date('2026-01-15T12:00:30Z'));
  const start = async (): Promise<TestApp> => {
    const app = await createTestApp({
      database,
      dataDir,
      clock,
      embeddedCluster: 'data-dir',
      env: { LIMIT_KEEPER_INTERVAL_MS: '60000', MARKET_SEED: 'trading-restart' },
    });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    return app;
  };

  it('reconciles an unrecorded swap and keeps orders, trades and balances consistent with the chain', async () => {
    const wallet = createSolanaWallet();
    let app = await start();
    const { body } = await signInWithWallet(app, wallet, 'phantom');
    const token = body.data.token;
    const fund = await call(app, {
      method: 'POST',
      url: '/api/wallet/fund',
      headers: bearer(token),
      payload: { amount_sol: 3, amount_usdc: 500 },
    });
    expect(fund.status).toBe(200);

    // A limit buy far below the market: escrowed and Pending.
    const limit = await call<TUnsignedTransaction>(app, {
      method: 'POST',
      url: '/api/trading/get-unsigned-transaction',
      headers: bearer(token),
      payload: { symbol: 'SOL/USDC', side: 'Buy', order_type: 'Limit', quantity: 1, price: 2 },
    });
    const placed = await call(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      headers: bearer(token),
      payload: { signed_transaction: wallet.signTransaction(limit.body.data.unsigned_transaction) },
    });
    expect(placed.status).toBe(200);

    // A market buy that is sent, then the process stops before recording it.
    const built = await call<TUnsignedTransaction>(app, {
      method: 'POST',
      url: '/api/trading/get-unsigned-transaction',
      headers: bearer(token),
      payload: { symbol: 'SOL/USDC', side: 'Buy', quantity: 0.25 },
    });
    const signed = wallet.signTransaction(built.body.data.unsigned_transaction);
    const transaction = getTransactionDecoder().decode(Buffer.from(signed, 'base64'));
    const signature = getSignatureFromTransaction(transaction);
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
    await app.cluster!.flush();
    const balanceBefore = (
      await call<TWalletBalance>(app, { method: 'GET', url: '/api/wallet/balance', headers: bearer(token) })
    ).body.data;
    await app.close();

    app = await start();
    try {
      const listOrders = () =>
        call<TSpotOrder[]>(app, { method: 'GET', url: '/api/trading/orders', headers: bearer(token) });
      // Reconciliation runs once the restarted server listens, beside the first requests.
      await expect
        .poll(async () => (await listOrders()).body.data.length, { timeout: 10_000, interval: 50 })
        .toBe(2);
      const orders = await listOrders();
      expect(orders.body.data.map((order) => [order.order_type, order.status])).toEqual([
        ['Market', 'Filled'],
        ['Limit', 'Pending'],
      ]);
      expect(orders.body.data[0]!.tx_hash).toBe(signature);
      const trades = await call<TTrade[]>(app, {
        method: 'GET',
        url: '/api/trading/trades',
        headers: bearer(token),
      });
      expect(trades.body.data).toEqual([expect.objectContaining({ tx_hash: signature, quantity: 0.25 })]);
      const balanceAfter = (
        await call<TWalletBalance>(app, { method: 'GET', url: '/api/wallet/balance', headers: bearer(token) })
      ).body.data;
      // Same holdings (their USD total moves with the market).
      expect({ ...balanceAfter, total_value_usd: 0 }).toEqual({ ...balanceBefore, total_value_usd: 0 });

      // The escrow key survived too: the pending order can still be cancelled and refunded.
      const cancelled = await call<TSpotOrder>(app, {
        method: 'POST',
        url: `/api/trading/orders/${orders.body.data[1]!.id}/cancel`,
        headers: bearer(token),
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      const refunded = (
        await call<TWalletBalance>(app, { method: 'GET', url: '/api/wallet/balance', headers: bearer(token) })
      ).body.data;
      expect(refunded.usdc_balance).toBe(balanceAfter.usdc_balance + 2);
    } finally {
      await app.close();
    }
  });

  it("resumes a trailing stop from its stored best price, not the market's price after the restart", async () => {
    let app = await start();
    const wallet = createSolanaWallet();
    const { body } = await signInWithWallet(app, wallet, 'phantom');
    const headers = bearer(body.data.token);
    expect(
      (await call(app, { method: 'POST', url: '/api/wallet/fund', headers, payload: { amount_sol: 3 } }))
        .status,
    ).toBe(200);
    const mid = async () =>
      Number(await app.services.trading.midPriceOf(await app.services.trading.resolvePair('SOL/USDC')));
    // Start where the next minute rises and the one after falls back below that high.
    const MINUTE = 60_000;
    for (let step = 0; ; step++) {
      expect(step, 'a rise then a fall within 6 hours').toBeLessThan(360);
      const now = await mid();
      clock.advance(MINUTE);
      const high = await mid();
      clock.advance(MINUTE);
      const after = await mid();
      clock.advance(-2 * MINUTE);
      if (high > now && after < high && after > high * 0.99) break;
      clock.advance(MINUTE);
    }
    const built = await call<TUnsignedTransaction>(app, {
      method: 'POST',
      url: '/api/trading/spot/order',
      headers,
      payload: { symbol: 'SOL/USDC', order_type: 'trailing_stop', side: 'Sell', amount: 1, trail_percent: 1 },
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const executed = await call(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      headers,
      payload: { signed_transaction: wallet.signTransaction(built.body.data.unsigned_transaction) },
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    clock.advance(MINUTE);
    const high = await mid();
    await app.keeper!.tick();
    const order = async () =>
      (await call<TSpotOrder[]>(app, { method: 'GET', url: '/api/trading/orders', headers })).body.data.find(
        (row) => row.id === built.body.data.order_id,
      )!;
    const followed = await order();
    expect(followed.trail_reference_price).toBeCloseTo(high, 4);
    await app.close();

    // The market falls back while the server is down; the next process keeps the high it had seen.
    clock.advance(MINUTE);
    app = await start();
    expect(await mid()).toBeLessThan(high);
    await app.keeper!.tick();
    const resumed = await order();
    expect(resumed).toMatchObject({
      status: 'Pending',
      trail_reference_price: followed.trail_reference_price,
    });
    expect(resumed.trigger_price).toBe(followed.trigger_price);
    await app.close();
  });
});
