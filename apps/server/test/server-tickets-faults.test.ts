import Dec from 'decimal.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDC_MINT } from '@solterm/contracts';
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
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';

// Fault injection against every transaction the server signs alone: random requests under random
// RPC faults (answers lost after the cluster took the transaction, late sends, failed status
// polls), then the faults clear and reconciliation runs. Money is conserved per user: what the
// chain paid out plus what the venue still holds equals what the user put in — never a payout
// twice (a refund of a withdrawal that landed), never one lost.

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

type Fault = { kind: 'none' } | { kind: 'send'; fault: SendFault } | { kind: 'polls'; n: number };

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant({ kind: 'none' } as const),
  fc.record({ kind: fc.constant('send' as const), fault: fc.constantFrom(...SEND_FAULTS) }),
  fc.record({ kind: fc.constant('polls' as const), n: fc.integer({ min: 1, max: 6 }) }),
);

const USDC = 1_000_000n;

function usdcUnits(text: string | number): bigint {
  return BigInt(new Dec(text).times(USDC.toString()).toDecimalPlaces(0, Dec.ROUND_DOWN).toFixed());
}

function inject(faults: RpcFaults, chosen: Fault): void {
  if (chosen.kind === 'send') faults.failNextSends(chosen.fault);
  else if (chosen.kind === 'polls') faults.failStatusPolls(chosen.n);
}

describe.each(databaseTargets())('server-signed transactions under RPC faults (%s)', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  const faults = createRpcFaults();
  let users: User[];

  const post = (url: string, user: User, payload: object, headers: Record<string, string> = {}) =>
    call<Record<string, unknown>>(app, {
      method: 'POST',
      url,
      payload,
      headers: { ...bearer(user.token), ...headers },
    });

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

  /** Faults clear; reconciliation runs until nothing the server sent is left unsettled. */
  async function settleEverything(): Promise<void> {
    await faults.clear();
    // Past any blockhash's validity and the keeper's reconciliation interval.
    app.clock.advance(180_000);
    await app.perpKeeper!.tick();
  }

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({
      database,
      clock: createClock(new Date('2026-01-15T12:00:30Z')),
      env: { MARKET_SEED: 'faults', MARKET_TICK_MS: '3600000', JOBS: 'off' },
      wrapRpcTransport: faults.wrap,
    });
    users = [];
    for (let i = 0; i < 2; i++) users.push(await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 1000 }));
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
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('futures withdrawals: never paid twice, never lost', async () => {
    const op = fc.record({ who: fc.nat(1), usdc: fc.integer({ min: 1, max: 25 }), fault });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 8 }), async (ops) => {
        const before = await Promise.all(
          users.map(async (user) => (await walletUsdc(user)) + (await collateral(user))),
        );
        for (const { who, usdc, fault: chosen } of ops) {
          inject(faults, chosen);
          await post('/api/futures/collateral/withdraw', users[who]!, { amount: usdc });
          await faults.clear();
        }
        await settleEverything();
        for (const [index, user] of users.entries()) {
          const received = await walletUsdc(user);
          const held = await collateral(user);
          // What the chain paid plus what the venue holds is what the user had: nothing twice.
          expect({ user: index, total: received + held }).toEqual({ user: index, total: before[index] });
        }
        await app.perpKeeper!.reconcile();
        const { vault, owed } = app.perpKeeper!.lastReconciliation()!;
        expect(vault).toBe(owed);
      }),
      { numRuns: 8, endOnFailure: true },
    );
  }, 600_000);
});
