import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDC_MINT, type TPendingTransaction } from '@solterm/contracts';
import { transactionTickets } from '../src/db/schema';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createRpcFaults } from './helpers/rpc-faults';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';

// A transaction the user's wallet signed whose send ends in an RPC error is an unknown outcome, not
// "never sent": the node may have taken it. The ticket stays sent, the answer is 202 pending with
// the signature, and the relay's reconcile settles it — landed is recorded (the user's order), expired
// unseen paid nothing. Reopening the ticket on the error lost the record of a swap that landed
// whenever the user did not sign it again.

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

describe('a wallet-signed transaction whose outcome the RPC leaves open', () => {
  const faults = createRpcFaults();
  let database: TestDatabase;
  let app: TestApp;
  let alice: User;

  const post = <T>(url: string, payload: object) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(alice.token) });
  const statusOf = async (signature: string) =>
    (
      await call<{ status: string }>(app, {
        method: 'GET',
        url: `/api/transactions/${signature}`,
        headers: bearer(alice.token),
      })
    ).body.data.status;
  const ticketOf = async (signature: string) =>
    (
      await database.database.db
        .select()
        .from(transactionTickets)
        .where(eq(transactionTickets.signature, signature))
    )[0];
  const usdc = async () =>
    (await app.services.chain.getTokenBalances(alice.wallet.address)).get(USDC_MINT)?.amount ?? 0n;

  /** A market buy of 0.05 SOL, signed by Alice's wallet. */
  async function signedBuy(): Promise<string> {
    const built = await post<{ unsigned_transaction: string }>('/api/trading/get-unsigned-transaction', {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Market',
      quantity: 0.05,
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    return alice.wallet.signTransaction(built.body.data.unsigned_transaction);
  }

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(new Date('2026-01-15T12:00:30Z')),
      env: { MARKET_SEED: 'wallet-ticket-faults', MARKET_TICK_MS: '3600000', JOBS: 'off' },
      wrapRpcTransport: faults.wrap,
    });
    alice = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 100 });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('answers pending with the signature when the send answer is lost and the status read fails, and records the swap once it is reconciled', async () => {
    const signed = await signedBuy();
    const before = await usdc();
    faults.failNextSends('drop');
    faults.failStatusPolls(2);
    const executed = await call<TPendingTransaction>(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      payload: { signed_transaction: signed },
      headers: { ...bearer(alice.token), 'idempotency-key': 'lost-answer' },
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(202);
    const { signature } = executed.body.data;
    expect(executed.body.data.status).toBe('pending');
    await faults.clear();
    // The cluster took it (the swap moved Alice's USDC) and the ticket is still sent, not reopened.
    expect(await usdc()).toBeLessThan(before);
    expect((await ticketOf(signature))?.status).toBe('sending');
    // A retry with the key answers the same; the same signed bytes again are not sent again.
    const again = await call(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      payload: { signed_transaction: signed },
      headers: { ...bearer(alice.token), 'idempotency-key': 'lost-answer' },
    });
    expect({ status: again.status, body: again.body }).toEqual({
      status: executed.status,
      body: executed.body,
    });
    const resent = await post('/api/trading/execute-signed-transaction', { signed_transaction: signed });
    expect(resent.body.code).toBe('TRADING__ALREADY_EXECUTED');

    // The user follows the signature; the relay's reconcile settles it as landed and records the order.
    expect(await statusOf(signature)).toBe('landed');
    expect((await ticketOf(signature))?.status).toBe('landed');
    const order = await post<{ tx_hash: string; status: string }>('/api/trading/spot/order', {
      tx_hash: signature,
    });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    expect(order.body.data).toMatchObject({ tx_hash: signature, status: 'Filled' });
  });

  it('answers pending when the send never reached the node, and expires it unseen (nothing paid) once its blockhash is past', async () => {
    const signed = await signedBuy();
    const before = await usdc();
    faults.failNextSends('lost');
    faults.failStatusPolls(2);
    const executed = await post<TPendingTransaction>('/api/trading/execute-signed-transaction', {
      signed_transaction: signed,
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(202);
    const { signature } = executed.body.data;
    // The node is down while the user looks: still pending, never an error inviting a second payment.
    faults.takeDown();
    expect(await statusOf(signature)).toBe('pending');
    await faults.clear();
    await app.cluster!.advanceSlots(400);
    expect(await app.services.relay.reconcileSent()).toBe(1);
    expect(await statusOf(signature)).toBe('expired');
    expect(await usdc()).toBe(before);
    expect((await ticketOf(signature))?.status).toBe('expired');
  });
});
