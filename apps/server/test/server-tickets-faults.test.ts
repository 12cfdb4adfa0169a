import Dec from 'decimal.js';
import { eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { USDC_MINT } from '@solterm/contracts';
import { botFills, botOrders, serverTickets, spotOrders, transactionTickets } from '../src/db/schema';
import type { CrashPoint } from '../src/modules/relay/relay.service';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createRpcFaults, SEND_FAULTS, type RpcFaults, type SendFault } from './helpers/rpc-faults';
import { createChainAccounting, type ChainReading } from './helpers/chain-accounting';
import { checkChainAgainstRecords, startOnChainFlip } from './helpers/chain-records';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';

// Fault injection against every transaction the server signs alone: random requests under random
// RPC faults (answers lost after the cluster took the transaction, late sends, sends that never
// arrive, failed status polls) and crashes between signing, recording and sending; then the faults
// clear and reconciliation runs (as it does on a restart). Money is conserved per user — what the
// chain paid plus what the venue holds equals what the records say — and in the USDC supply; no
// ticket stays pending once its blockhash is past and the reconcile job ran once more; a retry
// with the same Idempotency-Key answers the first outcome. Limit orders ride along: the keeper's
// fills and the owners' cancels run under the same faults, and each user's USDC moves by exactly
// what their filled orders paid the maker (an order filled twice would pay out of the escrow twice).
// On-chain bots trade too: each user's bot runs a strategy that trades at every minute's close, its
// draws (server tickets) and swaps (wallet tickets of the bot key) under the same faults. Across the
// whole cluster every lamport is somewhere or was a fee and every mint's supply moved only by the
// faucet's landed mints; every transaction a bot key paid for is a settled ticket; each bot's USDC
// moved by exactly what its landed swaps' tickets say, each owner's wrapped SOL by exactly the landed
// draws, and each fill of a run was traded by one landed swap.

interface User {
  token: string;
  wallet: SolanaSigningWallet;
  bot: string;
  runId: string;
}

const MINUTE = 60_000;

type Fault =
  | { kind: 'none' }
  | { kind: 'send'; fault: SendFault }
  | { kind: 'polls'; n: number }
  | { kind: 'crash'; at: CrashPoint };

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant({ kind: 'none' } as const),
  fc.record({ kind: fc.constant('send' as const), fault: fc.constantFrom(...SEND_FAULTS) }),
  fc.record({ kind: fc.constant('polls' as const), n: fc.integer({ min: 1, max: 6 }) }),
  fc.record({
    kind: fc.constant('crash' as const),
    at: fc.constantFrom<CrashPoint>('signed', 'recorded', 'sent'),
  }),
);

const USDC = 1_000_000n;

function usdcUnits(text: string | number): bigint {
  return BigInt(new Dec(text).times(USDC.toString()).toDecimalPlaces(0, Dec.ROUND_DOWN).toFixed());
}

/** A crash the test injects: the send stops there, as a killed process would. */
class SimulatedCrash extends Error {}

describe.each(databaseTargets())('server-signed transactions under RPC faults (%s)', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  const faults: RpcFaults = createRpcFaults();
  let crashAt: CrashPoint | null = null;
  let users: User[];
  let run = 0;
  let userIds: string[] = [];
  let readChain: () => Promise<ChainReading>;

  const post = (url: string, user: User, payload: object, headers: Record<string, string> = {}) =>
    call<Record<string, unknown>>(app, {
      method: 'POST',
      url,
      payload,
      headers: { ...bearer(user.token), ...headers },
    });

  function inject(chosen: Fault): void {
    if (chosen.kind === 'send') faults.failNextSends(chosen.fault);
    else if (chosen.kind === 'polls') faults.failStatusPolls(chosen.n);
    else if (chosen.kind === 'crash') crashAt = chosen.at;
  }

  async function walletUsdc(user: User): Promise<bigint> {
    return (await app.services.chain.getTokenBalances(user.wallet.address)).get(USDC_MINT)?.amount ?? 0n;
  }

  async function collateral(user: User): Promise<bigint> {
    const answer = await call<{ collateral: string }>(app, {
      method: 'GET',
      url: '/api/futures/account',
      headers: bearer(user.token),
    });
    return usdcUnits(answer.body.data.collateral ?? '0');
  }

  /** USDC the faucet minted (landed tickets), per recipient wallet. */
  async function mintedTo(): Promise<Map<string, bigint>> {
    const rows = await database.database.db
      .select()
      .from(serverTickets)
      .where(eq(serverTickets.kind, 'faucet_mint'));
    const minted = new Map<string, bigint>();
    for (const row of rows) {
      if (row.status !== 'landed') continue;
      const { recipient, amount } = row.payload as { recipient: string; amount: string };
      minted.set(recipient, (minted.get(recipient) ?? 0n) + BigInt(amount));
    }
    return minted;
  }

  /** A limit buy escrowed without faults: crossing the maker's ask (the keeper fills it), or resting. */
  async function placeLimit(user: User, crossing: boolean): Promise<string> {
    let price = 3;
    if (crossing) {
      const book = await call<{ sells: { price: number }[] }>(app, {
        method: 'GET',
        url: '/api/trading/orderbook/SOL%2FUSDC',
      });
      price = Math.ceil(book.body.data.sells[0]!.price * 1.05);
    }
    const built = await post('/api/trading/get-unsigned-transaction', user, {
      symbol: 'SOL/USDC',
      side: 'Buy',
      order_type: 'Limit',
      quantity: 0.05,
      price,
    });
    expect(built.status).toBe(200);
    const data = built.body.data as { unsigned_transaction: string; order_id: string };
    const executed = await post('/api/trading/execute-signed-transaction', user, {
      signed_transaction: user.wallet.signTransaction(data.unsigned_transaction),
    });
    expect(executed.status).toBe(200);
    return data.order_id;
  }

  async function botTickets() {
    return database.database.db.select().from(serverTickets).where(eq(serverTickets.kind, 'bot_transfer'));
  }

  /** Every record still waiting for the chain's verdict: server tickets, wallet tickets, bot swaps. */
  async function unsettled(): Promise<string[]> {
    const { db } = database.database;
    const sent = await db.select().from(transactionTickets).where(eq(transactionTickets.status, 'sending'));
    const swaps = await db.select().from(botOrders).where(eq(botOrders.status, 'sending'));
    return [
      ...(await app.services.relay.server.unsettled()).map((row) => `server ${row.kind} ${row.signature}`),
      ...sent.map((row) => `wallet ${row.kind} ${row.signature}`),
      ...swaps.map((row) => `bot swap ${row.seq} ${row.signature}`),
    ];
  }

  /** One reconcile of every kind, and a pass of each bot (no new candle: it only settles its fill). */
  async function reconcileAll(): Promise<void> {
    await app.services.relay.server.reconcile();
    await app.services.relay.reconcileSent();
    for (const user of users) app.botRunner.forget(user.runId);
    await app.botRunner.pass();
  }

  /**
   * Faults clear, every blockhash in flight expires (the cluster moves past it), and the reconcile
   * job runs: after one more pass nothing may be pending.
   */
  async function settleEverything(): Promise<void> {
    await faults.clear();
    crashAt = null;
    await vi
      .waitFor(
        async () => {
          await reconcileAll();
          expect(await unsettled()).toEqual([]);
        },
        { timeout: 30_000, interval: 20 },
      )
      .catch(async () => {
        // Whatever the chain never saw must expire: past its blockhash, one more reconcile settles it.
        await app.cluster!.advanceSlots(400);
        await app.services.relay.server.reconcile();
        await app.services.relay.reconcileSent();
        expect((await unsettled()).filter((row) => !row.startsWith('bot swap'))).toEqual([]);
        // A bot's fill whose swap expired unseen is traded again (a new swap) on its next pass.
        await vi.waitFor(
          async () => {
            await reconcileAll();
            expect(await unsettled()).toEqual([]);
          },
          { timeout: 30_000, interval: 20 },
        );
      });
    expect(await unsettled()).toEqual([]);
  }

  /** Every ticket recorded so far (wallet and server tickets), to tell a run's own ones apart. */
  async function walletTicketIds(): Promise<Set<string>> {
    const { db } = database.database;
    const wallet = await db.select({ id: transactionTickets.id }).from(transactionTickets);
    const server = await db.select({ id: serverTickets.id }).from(serverTickets);
    return new Set([...wallet, ...server].map((row) => row.id));
  }

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({
      database,
      clock: createClock(new Date('2026-01-15T12:00:30Z')),
      env: { MARKET_SEED: 'faults', MARKET_TICK_MS: '3600000', JOBS: 'off' },
      wrapRpcTransport: faults.wrap,
      relayCrashPoint: (point) => {
        if (crashAt !== point) return;
        crashAt = null;
        throw new SimulatedCrash(`crash at ${point}`);
      },
    });
    // The jobs are off: the escrow owner (who pays the fees of limit fills and refunds) is funded here.
    await app.services.chain.requestAirdrop(app.keeper!.escrowAddress, 10_000_000_000n);
    users = [];
    for (let i = 0; i < 2; i++) {
      const funded = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 1000 });
      const key = await call<{ bot_public_key: string }>(app, {
        method: 'GET',
        url: '/api/bot/public-key',
        headers: bearer(funded.token),
      });
      const user = { ...funded, bot: key.body.data.bot_public_key, runId: '' };
      // The bot gets 1 SOL from its owner's wallet to withdraw back.
      const transfer = await post('/api/wallet/transfer', user, { to_address: user.bot, amount: 1 });
      const signed = user.wallet.signTransaction(
        (transfer.body.data as { unsigned_transaction: string }).unsigned_transaction,
      );
      expect(
        (await post('/api/trading/execute-signed-transaction', user, { signed_transaction: signed })).status,
      ).toBe(200);
      users.push(user);
    }
    userIds = await Promise.all(
      users.map(async (user) => {
        const me = await call<{ id: string }>(app, {
          method: 'GET',
          url: '/api/user/profile',
          headers: bearer(user.token),
        });
        return me.body.data.id;
      }),
    );
    await app.perpKeeper!.tick(true);
    for (const user of users) {
      const built = await post('/api/futures/account/initialize', user, { amount: 400 });
      const signed = user.wallet.signTransaction(
        (built.body.data as { unsigned_transaction: string }).unsigned_transaction,
      );
      const executed = await post('/api/trading/execute-signed-transaction', user, {
        signed_transaction: signed,
      });
      expect(executed.status).toBe(200);
    }
    // Each owner approves their bot key for 1 SOL and starts an on-chain bot that trades every minute.
    for (const user of users)
      user.runId = await startOnChainFlip(app, database.database.db, user.token, user.wallet);
    const vault = await call<{ vault_address: string }>(app, {
      method: 'GET',
      url: '/api/futures/account',
      headers: bearer(users[0]!.token),
    });
    const payers = [
      ...users.flatMap((user) => [user.wallet.address, user.bot]),
      app.cluster!.marketMaker.address,
      app.cluster!.treasury.address,
      app.keeper!.escrowAddress,
      vault.body.data.vault_address,
    ];
    readChain = createChainAccounting(app.cluster!, () => payers);
    await readChain();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const op = fc.record({
    what: fc.constantFrom(
      'withdraw' as const,
      'fund' as const,
      'bot' as const,
      'limit-fill' as const,
      'limit-cancel' as const,
      'onchain' as const,
    ),
    who: fc.nat(1),
    usdc: fc.integer({ min: 1, max: 25 }),
    fault,
    /** The same key twice in a run: the second answers the first outcome. */
    key: fc.option(fc.nat(2), { nil: undefined }),
    retry: fc.boolean(),
  });

  it('futures and bot withdrawals, faucet mints, limit fills and refunds, on-chain bot swaps: never paid twice, never lost, never left pending', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 7 }), async (ops) => {
        run++;
        const before = await Promise.all(
          users.map(async (user) => (await walletUsdc(user)) + (await collateral(user))),
        );
        const mintedBefore = await mintedTo();
        const botTicketsBefore = new Set((await botTickets()).map((row) => row.id));
        const botLamportsBefore = await Promise.all(
          users.map((user) => app.services.chain.getBalance(user.bot)),
        );
        let botRequests = 0;
        const supplyBefore = (await app.services.chain.getMintInfo(USDC_MINT))!.supply;
        const limitOrders: string[] = [];
        const chainBefore = await readChain();
        const ticketsBefore = await walletTicketIds();
        let traded = false;
        for (const { what, who, usdc, fault: chosen, key, retry } of ops) {
          const user = users[who]!;
          if (what === 'onchain') {
            // A minute closes: each bot trades it (a draw, a funding sell, the fill's swap) under the fault.
            traded = true;
            inject(chosen);
            app.clock.advance(MINUTE);
            await app.botRunner.pass();
            await faults.clear();
            crashAt = null;
            continue;
          }
          if (what === 'limit-fill' || what === 'limit-cancel') {
            const orderId = await placeLimit(user, what === 'limit-fill');
            limitOrders.push(orderId);
            inject(chosen);
            if (what === 'limit-fill') {
              await app.keeper!.tick();
            } else {
              const cancelled = await post(`/api/trading/orders/${orderId}/cancel`, user, {});
              if (chosen.kind !== 'crash') expect(cancelled.status).not.toBe(500);
            }
            await faults.clear();
            crashAt = null;
            continue;
          }
          const url = {
            withdraw: '/api/futures/collateral/withdraw',
            fund: '/api/wallet/fund',
            bot: '/api/bot/withdraw',
          }[what];
          const body = {
            withdraw: { amount: usdc },
            fund: { amount_sol: 0.01, amount_usdc: usdc },
            bot: { amount: usdc / 1000 },
          }[what];
          if (what === 'bot') botRequests++;
          const headers: Record<string, string> =
            key === undefined ? {} : { 'idempotency-key': `run-${target}-${run}-${what}-${key}` };
          inject(chosen);
          const first = await post(url, user, body, headers);
          if (chosen.kind !== 'crash') expect(first.status).not.toBe(500);
          if (first.status === 202) {
            expect(first.body.data).toMatchObject({ status: 'pending', signature: expect.any(String) });
          }
          await faults.clear();
          crashAt = null;
          if (retry && key !== undefined) {
            const again = await post(url, user, body, headers);
            // The same key answers the first outcome; a first one that failed before sending may run.
            if (first.status === 200 || first.status === 202 || (first.status >= 400 && first.status < 500)) {
              expect({ status: again.status, body: again.body }).toEqual({
                status: first.status,
                body: first.body,
              });
            }
          }
        }
        await settleEverything();
        // Orders the chain gave back (their settlement failed or expired unseen) are cancelled, so
        // no later run's keeper pass fills them.
        for (const orderId of limitOrders) {
          const [order] = await database.database.db
            .select()
            .from(spotOrders)
            .where(eq(spotOrders.id, orderId));
          if (order!.status !== 'Pending') continue;
          const owner = users[userIds.indexOf(order!.userId)]!;
          const cancelled = await post(`/api/trading/orders/${orderId}/cancel`, owner, {});
          expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
        }
        const paidToMaker = new Map<string, bigint>();
        const runOrders =
          limitOrders.length === 0
            ? []
            : await database.database.db.select().from(spotOrders).where(inArray(spotOrders.id, limitOrders));
        for (const order of runOrders) {
          expect(['Filled', 'Cancelled']).toContain(order.status);
          if (order.status !== 'Filled') continue;
          paidToMaker.set(
            order.userId,
            (paidToMaker.get(order.userId) ?? 0n) + BigInt(order.fillMakerAmount!),
          );
        }
        const minted = await mintedTo();
        let mintedThisRun = 0n;
        for (const [index, user] of users.entries()) {
          const mintedNow =
            (minted.get(user.wallet.address) ?? 0n) - (mintedBefore.get(user.wallet.address) ?? 0n);
          mintedThisRun += mintedNow;
          const total = (await walletUsdc(user)) + (await collateral(user));
          // What the chain paid plus what the venue holds is what the user had plus what the
          // faucet's landed tickets minted, less what their filled limit orders paid the maker:
          // nothing twice, nothing lost.
          const paid = paidToMaker.get(userIds[index]!) ?? 0n;
          expect({ user: index, total }).toEqual({ user: index, total: before[index]! + mintedNow - paid });
        }
        // The bots paid exactly what their settled tickets say (amounts landed, fees of every ticket
        // that reached the chain), and no request paid through more than one ticket.
        const runTickets = (await botTickets()).filter((row) => !botTicketsBefore.has(row.id));
        const withdrawals = runTickets.filter(
          (row) => (row.payload as { purpose: string }).purpose === 'withdraw',
        );
        expect(withdrawals.filter((row) => row.status === 'landed').length).toBeLessThanOrEqual(botRequests);
        for (const [index, user] of users.entries()) {
          // (A bot that traded this run also drew, swapped and paid fees: the chain-wide checks below.)
          if (traded) break;
          let spent = 0n;
          for (const row of withdrawals.filter((ticket) => ticket.userId === userIds[index])) {
            if (row.status !== 'landed' && row.status !== 'failed') continue;
            spent += (await app.services.chain.getTransactionFee(row.signature)) ?? 0n;
            if (row.status === 'landed') spent += BigInt((row.payload as { amount: string }).amount);
          }
          const lamports = await app.services.chain.getBalance(user.bot);
          expect({ bot: index, spent: botLamportsBefore[index]! - lamports }).toEqual({ bot: index, spent });
        }
        const supplyAfter = (await app.services.chain.getMintInfo(USDC_MINT))!.supply;
        expect(supplyAfter - supplyBefore).toBe(mintedThisRun);
        await checkChainAgainstRecords({
          db: database.database.db,
          owners: users.map((user, index) => ({ ...user, userId: userIds[index]! })),
          before: chainBefore,
          after: await readChain(),
          recordedBefore: ticketsBefore,
          minted: mintedThisRun,
        });
        await app.perpKeeper!.reconcile();
        const { vault, owed } = app.perpKeeper!.lastReconciliation()!;
        expect(vault).toBe(owed);
      }),
      {
        numRuns: Number(process.env.FAULTS_RUNS ?? 8),
        endOnFailure: true,
        // Replays a reported failure: FAULTS_SEED=<seed> FAULTS_PATH=<path>.
        ...(process.env.FAULTS_SEED ? { seed: Number(process.env.FAULTS_SEED) } : {}),
        ...(process.env.FAULTS_PATH ? { path: process.env.FAULTS_PATH } : {}),
      },
    );
    expect(faults.injected()).toBeGreaterThan(0);
    // The bots did trade: the checks above were about real swaps and draws.
    expect((await database.database.db.select().from(botFills)).length).toBeGreaterThan(0);
  }, 600_000);
});
