import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_CONFIG,
  USDC_MINT,
  WRAPPED_SOL_MINT,
  type TBot,
  type TBotBalance,
  type TDelegation,
} from '@solterm/contracts';
import type { ClusterHost, TransactionRecord } from '@solterm/localnet';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { FLIP_STRATEGY } from './helpers/bot-strategies';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';

/**
 * Value conservation for on-chain bots, with an adversary: over random approvals, starts, candle
 * closes (the bot drawing, swapping and selling through the relay), withdrawals (valid or not),
 * stops and revocations by the owner, and attacks by another user (submitting the owner's
 * approval, spelling out a delegation to the owner's bot key, withdrawing or starting what is
 * not theirs), after every step:
 * - SOL: every account's lamports plus every fee paid never changes, and every mint's supply is
 *   unchanged (nothing is minted or burnt by a bot);
 * - the owner, the bot and the venue together hold what they held, less the fees they paid:
 *   nothing leaks to anyone else — in particular the adversary gains nothing beyond what he had,
 *   less his own fees;
 * - the owner's wrapped SOL leaves only under an approval: it never falls by more than the
 *   approvals allowed, and the chain's allowance never exceeds the last approved amount.
 */

const NOW = new Date('2026-03-02T09:00:30Z');
const MINUTE = 60_000;

/** A landed transaction's fee payer: the first account of its message. */
function feePayerOf(record: TransactionRecord): string {
  const { messageBytes } = getTransactionDecoder().decode(Buffer.from(record.transaction, 'base64'));
  return getCompiledTransactionMessageDecoder().decode(messageBytes).staticAccounts[0]!;
}

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

type Action =
  | { kind: 'approve'; amount: number }
  | { kind: 'start' }
  | { kind: 'candles'; minutes: number }
  | { kind: 'withdraw'; amount: number }
  | { kind: 'withdraw_usdc'; share: number }
  | { kind: 'stop' }
  | { kind: 'revoke' }
  | { kind: 'adversary'; attack: 'submit_owners' | 'spell_owners_key' | 'withdraw' | 'start_owners' };

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('approve' as const), amount: fc.constantFrom(0.1, 0.3, 1) }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'start' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('candles' as const), minutes: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      amount: fc.constantFrom(0, 0.00005, 0.0001, 0.002, 0.05, 5),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('withdraw_usdc' as const), share: fc.constantFrom(0.5, 1, 2) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'stop' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'revoke' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('adversary' as const),
      attack: fc.constantFrom(
        'submit_owners',
        'spell_owners_key',
        'withdraw',
        'start_owners',
      ) as fc.Arbitrary<'submit_owners' | 'spell_owners_key' | 'withdraw' | 'start_owners'>,
    }),
  },
);

interface Chain {
  lamports: Map<string, bigint>;
  /** Lamports of each owner's system account plus all its token accounts' lamports. */
  ownedLamports: Map<string, bigint>;
  /** Token amounts by owner and mint. */
  tokens: Map<string, bigint>;
  supply: Map<string, bigint>;
  /** Fees paid so far, by fee payer. */
  feesBy: Map<string, bigint>;
  wrapped: { amount: bigint; delegate: string | null; delegated: bigint } | null;
}

describe('on-chain bot funds are conserved, with an adversary', () => {
  let database: TestDatabase;
  let app: TestApp;
  let cluster: ClusterHost;
  let alice: User;
  let bob: User;
  let bot: string;
  let maker: string;
  const newest = new Map<string, string | undefined>();
  const fees = new Map<string, bigint>();
  const counted = new Set<string>();
  let feePayers: string[];

  // Each run calls from its own address: the funds endpoints allow 30 calls a minute per client.
  let client = '10.77.0.1';
  const get = <T>(url: string, user: User) =>
    call<T>(app, { method: 'GET', url, headers: bearer(user.token), remoteAddress: client });
  const post = <T>(url: string, user: User, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(user.token), remoteAddress: client });

  const walletUser = (): Promise<User> => fundedWalletUser(app, { amount_sol: 5, amount_usdc: 50 });

  async function readChain(): Promise<Chain> {
    const read = (await cluster.snapshot({
      programAccounts: [SYSTEM_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS],
      signaturesFor: feePayers.map((payer) => ({
        address: payer,
        options: { limit: 1_000_000, until: newest.get(payer) },
      })),
    })) as {
      programAccounts: { address: string; lamports: bigint; data: Uint8Array }[][];
      signatures: TransactionRecord[][];
    };
    const lamports = new Map<string, bigint>();
    const ownedLamports = new Map<string, bigint>();
    const tokens = new Map<string, bigint>();
    const supply = new Map<string, bigint>();
    const add = (map: Map<string, bigint>, key: string, value: bigint) =>
      map.set(key, (map.get(key) ?? 0n) + value);
    let wrapped: Chain['wrapped'] = null;
    for (const account of read.programAccounts[0]!) {
      lamports.set(account.address, account.lamports);
      add(ownedLamports, account.address, account.lamports);
    }
    for (const account of read.programAccounts[1]!) {
      lamports.set(account.address, account.lamports);
      if (account.data.length === 82)
        supply.set(account.address, getMintDecoder().decode(account.data).supply);
      if (account.data.length !== 165) continue;
      const holding = getTokenDecoder().decode(account.data);
      add(ownedLamports, holding.owner, account.lamports);
      add(tokens, `${holding.owner}:${holding.mint}`, holding.amount);
      if (holding.owner === alice.wallet.address && holding.mint === WRAPPED_SOL_MINT) {
        const delegate = holding.delegate.__option === 'Some' ? holding.delegate.value : null;
        wrapped = { amount: holding.amount, delegate, delegated: delegate ? holding.delegatedAmount : 0n };
      }
    }
    for (const [index, payer] of feePayers.entries()) {
      const fresh = read.signatures[index]!;
      if (fresh.length > 0) newest.set(payer, fresh[0]!.signature);
      // A transaction is listed for every address it names: count its fee once, for its fee payer.
      for (const record of fresh) {
        if (counted.has(record.signature)) continue;
        counted.add(record.signature);
        const payer = feePayerOf(record);
        fees.set(payer, (fees.get(payer) ?? 0n) + BigInt(record.fee));
      }
    }
    return { lamports, ownedLamports, tokens, supply, feesBy: new Map(fees), wrapped };
  }

  const sum = (values: Iterable<bigint>) => [...values].reduce((a, b) => a + b, 0n);
  const feeOf = (chain: Chain, payer: string) => chain.feesBy.get(payer) ?? 0n;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'bot-funds-conservation', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    cluster = app.cluster!;
    maker = cluster.marketMaker.address;
    alice = await walletUser();
    bob = await walletUser();
    bot = (await get<{ bot_public_key: string }>('/api/bot/public-key', alice)).body.data.bot_public_key;
    await get('/api/bot/public-key', bob);
    feePayers = [alice.wallet.address, bob.wallet.address, bot, maker, cluster.treasury.address];
    await readChain();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('conserves every lamport and token across the owner, the bot and the venue; the adversary moves nothing', async () => {
    let runIndex = 0;
    // The last approval stands across runs (the chain keeps it) until a revocation.
    let approvedLimit = 0n;
    await fc.assert(
      fc.asyncProperty(fc.array(actionArbitrary, { minLength: 3, maxLength: 8 }), async (actions) => {
        client = `10.77.${runIndex >> 8}.${(runIndex & 255) + 2}`;
        const created = await post<TBot>('/api/bots', alice, {
          name: `Flip ${runIndex++}`,
          strategy_type: 'scalper',
          config: {
            ...DEFAULT_BOT_CONFIG,
            amount: 0.02,
            interval: '1M',
            code: FLIP_STRATEGY,
            stop_loss_percentage: 50,
            take_profit_percentage: 50,
          },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const botId = created.body.data.bot_id;
        let pending: TDelegation | null = null;
        let before = await readChain();
        const insiders = [alice.wallet.address, bot, maker];
        const insidersHeld = (chain: Chain) =>
          sum(insiders.map((owner) => chain.ownedLamports.get(owner) ?? 0n)) +
          sum(insiders.map((owner) => feeOf(chain, owner)));
        for (const action of actions) {
          const label = JSON.stringify(action);
          switch (action.kind) {
            case 'approve': {
              const built = await post<TDelegation>('/api/delegation/create', alice, {
                amount: action.amount,
              });
              if (built.status !== 200) break;
              pending = built.body.data;
              const submitted = await post('/api/delegation/submit', alice, {
                delegation_id: pending.delegation_id,
                signed_transaction: alice.wallet.signTransaction(pending.unsigned_transaction!),
              });
              expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
              approvedLimit = BigInt(Math.round(action.amount * 1e9));
              break;
            }
            case 'start':
              await post(`/api/bots/production/${botId}/start`, alice);
              break;
            case 'candles':
              app.clock.advance(action.minutes * MINUTE);
              await app.botRunner.pass();
              break;
            case 'withdraw': {
              const { status } = await post('/api/bot/withdraw', alice, { amount: action.amount });
              expect([200, 400], label).toContain(status);
              break;
            }
            case 'withdraw_usdc': {
              // A share of the USDC the bot holds (2: more than it holds, refused).
              const held = (await get<TBotBalance>('/api/bot/balance', alice)).body.data.tokens.find(
                (token) => token.mint === USDC_MINT,
              );
              const amount = Number(((held?.amount ?? 0.01) * action.share).toFixed(6));
              const { status } = await post('/api/bot/withdraw', alice, { amount, token_mint: USDC_MINT });
              expect([200, 400], label).toContain(status);
              break;
            }
            case 'stop':
              await post(`/api/bots/production/${botId}/stop`, alice);
              break;
            case 'revoke': {
              const active = (await get<TDelegation[]>('/api/delegation/list', alice)).body.data.find(
                (row) => row.status === 'active',
              );
              if (!active) break;
              const revoke = await call<TDelegation>(app, {
                method: 'DELETE',
                url: `/api/delegation/revoke/${active.delegation_id}`,
                headers: bearer(alice.token),
                remoteAddress: client,
              });
              expect(revoke.status).toBe(200);
              const submitted = await post('/api/delegation/submit', alice, {
                delegation_id: active.delegation_id,
                signed_transaction: alice.wallet.signTransaction(revoke.body.data.unsigned_transaction!),
              });
              expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
              approvedLimit = 0n;
              break;
            }
            case 'adversary': {
              if (action.attack === 'submit_owners') {
                const built = await post<TDelegation>('/api/delegation/create', alice, { amount: 0.1 });
                if (built.status !== 200) break;
                // Bob has Alice's unsigned approval and signs it himself, or submits it as his own.
                const asBob = await post('/api/delegation/submit', bob, {
                  delegation_id: built.body.data.delegation_id,
                  signed_transaction: built.body.data.unsigned_transaction!,
                });
                expect(asBob.status, label).toBe(404);
              } else if (action.attack === 'spell_owners_key') {
                const spelled = await post('/api/delegation/create-transaction', bob, {
                  wallet_address: bob.wallet.address,
                  token_mint: WRAPPED_SOL_MINT,
                  amount: 1e9,
                  bot_public_key: bot,
                });
                expect(spelled.body.code, label).toBe('DELEGATION__BOT_KEY_MISMATCH');
              } else if (action.attack === 'withdraw') {
                const taken = await post('/api/bot/withdraw', bob, { amount: 0.001 });
                expect(taken.status, label).toBe(400);
              } else {
                const started = await post(`/api/bots/production/${botId}/start`, bob);
                expect(started.status, label).toBe(404);
              }
              break;
            }
          }
          const after = await readChain();
          // Every lamport is somewhere or was paid as a fee; no mint's supply moved.
          expect(sum(after.lamports.values()) + sum(after.feesBy.values()), label).toBe(
            sum(before.lamports.values()) + sum(before.feesBy.values()),
          );
          expect(after.supply, label).toEqual(before.supply);
          // The owner, the bot and the venue together: nothing leaked out, nothing came in.
          expect(insidersHeld(after), label).toBe(insidersHeld(before));
          // (Wrapped SOL is lamports, counted above: wrapping moves no token supply.)
          for (const mint of after.supply.keys()) {
            if (mint === WRAPPED_SOL_MINT) continue;
            const held = (chain: Chain) =>
              sum(insiders.map((owner) => chain.tokens.get(`${owner}:${mint}`) ?? 0n));
            expect(held(after), `${label} ${mint}`).toBe(held(before));
          }
          // The adversary holds what he held, less his own fees.
          const bobs = (chain: Chain) =>
            (chain.ownedLamports.get(bob.wallet.address) ?? 0n) + feeOf(chain, bob.wallet.address);
          expect(bobs(after), label).toBe(bobs(before));
          // Alice's wrapped SOL leaves only under her approval, and never past it.
          if (after.wrapped) {
            expect(after.wrapped.delegated, label).toBeLessThanOrEqual(approvedLimit);
            if (after.wrapped.delegate !== null) expect(after.wrapped.delegate, label).toBe(bot);
          }
          before = after;
        }
        await post(`/api/bots/production/${botId}/stop`, alice);
      }),
      { numRuns: Number(process.env.BOT_CONSERVATION_RUNS ?? 15) },
    );
  }, 240_000);
});
