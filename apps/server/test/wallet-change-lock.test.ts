import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  USDC_MINT,
  type TBotBalance,
  type TBotWithdrawResult,
  type TDelegation,
  type TFuturesAccount,
  type TFuturesDeposit,
  type TOutboxEmail,
} from '@solterm/contracts';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createSolanaWallet, signInWithWallet, type SolanaSigningWallet } from './helpers/wallets';

// A withdrawal lock after the payout wallet changes. A stolen session can link a wallet the thief
// owns and signs for; withdrawals of bot funds and futures collateral to it are then refused for
// WALLET_CHANGE_LOCK_MS (with the time they unlock), and the account's email is told. An account's
// first wallet is not locked — unless its bot key already holds funds (sent to it before any wallet
// was linked) — and linking a wallet it had before neither waits nor restarts a lock.

const NOW = new Date('2026-01-15T12:00:30Z');
const LOCK_MS = 3_600_000;
const UNLOCK_TEXT = '2026-01-15 13:00:30 UTC';
const LOCKED = `This wallet was linked to your account recently: withdrawals to it unlock at ${UNLOCK_TEXT}. Until then they can go only to a wallet you linked earlier.`;

describe.each(databaseTargets())(
  'withdrawals to a newly linked wallet wait for the wallet-change lock on %s',
  (target) => {
    let database: TestDatabase;
    let app: TestApp;
    let victim: { token: string; email: string };
    let own: SolanaSigningWallet;
    const thief = createSolanaWallet();

    const get = <T>(url: string) => call<T>(app, { method: 'GET', url, headers: bearer(victim.token) });
    const post = <T>(url: string, payload: object = {}) =>
      call<T>(app, { method: 'POST', url, payload, headers: bearer(victim.token) });
    const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
      const { body } = await call<never>(app, {
        method: 'POST',
        url: '/rpc',
        payload: { jsonrpc: '2.0', id: 1, method, params },
      });
      return (body as unknown as { result: T }).result;
    };
    const lamports = async (owner: string) => (await rpc<{ value: number }>('getBalance', [owner])).value;
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
    const link = async (wallet: SolanaSigningWallet) => {
      const linked = await signInWithWallet(app, wallet, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: bearer(victim.token),
      });
      expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    };
    const botLamports = async () => BigInt((await get<TBotBalance>('/api/bot/balance')).body.data.lamports);
    const collateral = async () => (await get<TFuturesAccount>('/api/futures/account')).body.data.collateral;
    const mailsToVictim = async () =>
      (
        await call<TOutboxEmail[]>(app, {
          method: 'GET',
          url: '/api/dev/outbox',
          query: { to: victim.email },
          remoteAddress: '127.0.0.1',
        })
      ).body.data;
    const withdrawals = () =>
      Promise.all([
        post('/api/bot/withdraw', { amount: 0.001 }),
        post('/api/futures/collateral/withdraw', { amount: 1 }),
      ]);

    beforeAll(async () => {
      database = await openTestDatabase(target);
      app = await createTestApp({
        database,
        clock: createClock(NOW),
        env: {
          MARKET_SEED: 'wallet-change-lock',
          MARKET_TICK_MS: '3600000',
          JOBS: 'off',
          WALLET_CHANGE_LOCK_MS: String(LOCK_MS),
        },
      });
      // The venue's first tick opens its vault on chain (JOBS=off: nothing ticks on its own).
      await app.perpKeeper!.tick(true);
      victim = await registerUser(app);
    });

    afterAll(async () => {
      await app?.close();
      await database?.cleanup();
    });

    it("an account's first wallet is not locked: it funds the bot and futures and withdraws at once", async () => {
      own = createSolanaWallet();
      await link(own);
      const funded = await post('/api/wallet/fund', { amount_sol: 5, amount_usdc: 100 });
      expect(funded.status, JSON.stringify(funded.body)).toBe(200);

      const built = await post<TFuturesDeposit>('/api/futures/account/initialize', { amount: 50 });
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      const deposited = await post('/api/trading/execute-signed-transaction', {
        signed_transaction: own.signTransaction(built.body.data.unsigned_transaction),
      });
      expect(deposited.status, JSON.stringify(deposited.body)).toBe(200);
      expect(await collateral()).toBe('50.000000');
      // Approving 1 SOL for the bot puts 0.01 SOL of fee money in the bot key.
      const created = await post<TDelegation>('/api/delegation/create', { amount: 1 });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const approved = await post('/api/delegation/submit', {
        delegation_id: created.body.data.delegation_id,
        signed_transaction: own.signTransaction(created.body.data.unsigned_transaction!),
      });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);

      for (const { status, body } of await withdrawals()) expect(status, JSON.stringify(body)).toBe(200);
      expect(await collateral()).toBe('49.000000');
      expect(await mailsToVictim()).toEqual([]);
    });

    it("a stolen session linking the thief's signed wallet withdraws nothing to it until the lock ends, and the owner is emailed", async () => {
      const [botBefore, collateralBefore] = [await botLamports(), await collateral()];
      expect(botBefore).toBeGreaterThan(1_000_000n);

      await link(thief);
      for (const { status, body } of await withdrawals()) {
        expect(status, JSON.stringify(body)).toBe(403);
        expect(body).toEqual({ success: false, code: 'WALLET__CHANGE_LOCKED', error: LOCKED });
      }
      expect(await lamports(thief.address)).toBe(0);
      expect(await usdcOf(thief.address)).toBe(0n);
      expect(await botLamports()).toBe(botBefore);
      expect(await collateral()).toBe(collateralBefore);

      const mails = await mailsToVictim();
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('A new wallet was linked to your solterm account');
      expect(mails[0]!.text).toContain(
        `A new wallet ${thief.address} was linked to your solterm account at 2026-01-15 12:00:30 UTC; withdrawals to it unlock at ${UNLOCK_TEXT}.`,
      );
    });

    it('linking the earlier wallet again withdraws to it at once; the new one stays locked, never restarted', async () => {
      await link(own);
      const before = await lamports(own.address);
      const withdrawn = await post<TBotWithdrawResult>('/api/bot/withdraw', { amount: 0.001 });
      expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
      expect(withdrawn.body.data.to_address).toBe(own.address);
      expect(await lamports(own.address)).toBe(before + 1_000_000);

      // Half an hour later the thief links their wallet again: it unlocks when it first would have.
      app.clock.advance(LOCK_MS / 2);
      await link(thief);
      for (const { status, body } of await withdrawals()) {
        expect(status, JSON.stringify(body)).toBe(403);
        expect(body.error).toBe(LOCKED);
      }
      expect(await lamports(thief.address)).toBe(0);
      expect(await mailsToVictim()).toHaveLength(1);
    });

    it('once the lock has ended, withdrawals go to the newly linked wallet', async () => {
      app.clock.advance(LOCK_MS / 2);
      // The faucet is not locked (it only gives): it opens the wallet's USDC account for the withdrawal.
      expect((await post('/api/wallet/fund', { amount_sol: 1, amount_usdc: 1 })).status).toBe(200);
      const [lamportsBefore, usdcBefore] = [await lamports(thief.address), await usdcOf(thief.address)];

      for (const { status, body } of await withdrawals()) expect(status, JSON.stringify(body)).toBe(200);
      expect(await lamports(thief.address)).toBe(lamportsBefore + 1_000_000);
      expect(await usdcOf(thief.address)).toBe(usdcBefore + 1_000_000n);
    });

    it("an email account whose bot key was sent SOL before it had a wallet: a stolen session's first wallet is locked too, and the owner is emailed", async () => {
      const owner = await registerUser(app);
      const asOwner = bearer(owner.token);
      const botKey = (
        await call<{ bot_public_key: string }>(app, {
          method: 'GET',
          url: '/api/bot/public-key',
          headers: asOwner,
        })
      ).body.data.bot_public_key;
      // The owner sends SOL straight to the bot key (from an exchange, say) before linking any wallet.
      await app.services.chain.requestAirdrop(botKey, 500_000_000n);
      const taker = createSolanaWallet();
      const linked = await signInWithWallet(app, taker, 'phantom', {
        url: '/api/auth/connect-wallet-to-user',
        headers: asOwner,
      });
      expect(linked.status, JSON.stringify(linked.body)).toBe(200);
      const taken = await call(app, {
        method: 'POST',
        url: '/api/bot/withdraw',
        payload: { amount: 0.4 },
        headers: asOwner,
      });
      expect(taken.status, JSON.stringify(taken.body)).toBe(403);
      expect(taken.body.code).toBe('WALLET__CHANGE_LOCKED');
      expect(await lamports(taker.address)).toBe(0);
      expect(await lamports(botKey)).toBe(500_000_000);
      const mails = (
        await call<TOutboxEmail[]>(app, {
          method: 'GET',
          url: '/api/dev/outbox',
          query: { to: owner.email },
          remoteAddress: '127.0.0.1',
        })
      ).body.data;
      expect(mails.map((mail) => mail.subject)).toContain('A new wallet was linked to your solterm account');
    });
  },
);
