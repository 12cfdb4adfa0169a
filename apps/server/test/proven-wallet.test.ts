import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_CONFIG,
  type TBot,
  type TBotBalance,
  type TBotWithdrawResult,
  type TDelegation,
} from '@solterm/contracts';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  registerUser,
  type AuthData,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { FLIP_STRATEGY } from './helpers/bot-strategies';
import {
  createSolanaWallet,
  fundedWalletUser,
  signInWithWallet,
  type SolanaSigningWallet,
} from './helpers/wallets';

// Money leaves the server only to a wallet its user proved by signature. A typed address
// (wallet_type 'manual') — whether it is a watch-only account or was connected to a signed-in
// account, e.g. by whoever stole its session — can read, but never withdraw from the bot, copy a
// marketplace bot, start an on-chain bot, withdraw futures collateral or take from the faucet.

const NOW = new Date('2026-01-15T12:00:30Z');
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WATCH_ONLY = 'This is a watch-only wallet. Connect a signing wallet (Phantom, Solflare) to trade.';

describe('only a wallet proven by signature receives money or acts with it', () => {
  let database: TestDatabase;
  let app: TestApp;
  let alice: { token: string; wallet: SolanaSigningWallet };
  let aliceBot: string;
  let listed: string;

  const get = <T>(url: string, token: string) => call<T>(app, { method: 'GET', url, headers: bearer(token) });
  const post = <T>(url: string, token: string, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(token) });
  const lamports = async (address: string) => {
    const { body } = await call<never>(app, {
      method: 'POST',
      url: '/rpc',
      payload: { jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address] },
    });
    return (body as unknown as { result: { value: number } }).result.value;
  };
  const botsOf = async (token: string) => (await get<TBot[]>('/api/bots', token)).body.data;

  /** Each way money leaves, or is put to work, for the caller's connected wallet. */
  const moneyOut = (token: string, ownBot: string) => [
    post('/api/bot/withdraw', token, { amount: 0.001 }),
    post('/api/bot/withdraw', token, { amount: 1, token_mint: USDC }),
    post(`/api/bots/marketplace/${listed}/copy`, token),
    post(`/api/bots/production/${ownBot}/start`, token),
    post('/api/futures/collateral/withdraw', token, { amount: 1 }),
    post('/api/wallet/fund', token, { amount_sol: 1, amount_usdc: 0 }),
  ];

  async function createBot(token: string, name: string, isPublic = false): Promise<string> {
    const created = await post<TBot>('/api/bots', token, {
      name,
      strategy_type: 'scalper',
      is_public: isPublic,
      config: { ...DEFAULT_BOT_CONFIG, amount: 0.05, interval: '1M', code: FLIP_STRATEGY },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.data.bot_id;
  }

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'proven-wallet', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    const author = (await registerUser(app)).token;
    listed = await createBot(author, 'Listed', true);

    // Alice signed in with Phantom and approved 1 SOL for her bot: the approval puts 0.01 SOL of
    // fee money in the bot key, which she may withdraw.
    alice = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 100 });
    aliceBot = await createBot(alice.token, 'Mine');
    const created = await post<TDelegation>('/api/delegation/create', alice.token, { amount: 1 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const submitted = await post('/api/delegation/submit', alice.token, {
      delegation_id: created.body.data.delegation_id,
      signed_transaction: alice.wallet.signTransaction(created.body.data.unsigned_transaction!),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('a stolen session that connects a typed address moves nothing there, and can still read', async () => {
    const thief = createSolanaWallet().address;
    const bot = (await get<TBotBalance>('/api/bot/balance', alice.token)).body.data;
    expect(BigInt(bot.lamports)).toBeGreaterThan(1_000_000n);

    const redirected = await post('/api/auth/connect-wallet-to-user', alice.token, {
      wallet_address: thief,
      wallet_type: 'manual',
    });
    expect(redirected.status, JSON.stringify(redirected.body)).toBe(200);

    for (const { status, body } of await Promise.all(moneyOut(alice.token, aliceBot))) {
      expect(status, JSON.stringify(body)).toBe(403);
      expect(body).toMatchObject({ code: 'WALLET__WATCH_ONLY', error: WATCH_ONLY });
    }
    expect(await lamports(thief)).toBe(0);
    const after = await get<TBotBalance>('/api/bot/balance', alice.token);
    expect(after.status).toBe(200);
    expect(after.body.data.lamports).toBe(bot.lamports);
    expect((await botsOf(alice.token)).map((row) => [row.bot_id, row.status])).toEqual([
      [aliceBot, 'stopped'],
    ]);
    expect((await get('/api/delegation/list', alice.token)).status).toBe(200);
  });

  it('a watch-only account can read but never withdraw, copy or start on chain', async () => {
    const watched = createSolanaWallet().address;
    const signedIn = await call<AuthData>(app, {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: watched, wallet_type: 'manual' },
    });
    const token = signedIn.body.data.token;
    const ownBot = await createBot(token, 'Watcher');
    const bot = await get<TBotBalance>('/api/bot/balance', token);
    expect(bot.status).toBe(200);

    for (const { status, body } of await Promise.all(moneyOut(token, ownBot))) {
      expect(status, JSON.stringify(body)).toBe(403);
      expect(body.code).toBe('WALLET__WATCH_ONLY');
    }
    // It cannot approve a delegation either, so its bot can never hold anything to move.
    expect((await post('/api/delegation/create', token, { amount: 1 })).body.code).toBe('WALLET__WATCH_ONLY');
    expect(await lamports(watched)).toBe(0);
    expect((await get<TBotBalance>('/api/bot/balance', token)).body.data.lamports).toBe(
      bot.body.data.lamports,
    );
    expect((await botsOf(token)).map((row) => [row.bot_id, row.status])).toEqual([[ownBot, 'stopped']]);
  });

  it('the signed wallet, connected again, receives the withdrawal, copies and starts on chain', async () => {
    const reconnected = await signInWithWallet(app, alice.wallet, 'phantom', {
      url: '/api/auth/connect-wallet-to-user',
      headers: bearer(alice.token),
    });
    expect(reconnected.status, JSON.stringify(reconnected.body)).toBe(200);

    const before = await lamports(alice.wallet.address);
    const withdrawn = await post<TBotWithdrawResult>('/api/bot/withdraw', alice.token, { amount: 0.001 });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.data.to_address).toBe(alice.wallet.address);
    expect(await lamports(alice.wallet.address)).toBe(before + 1_000_000);

    const copied = await post<TBot>(`/api/bots/marketplace/${listed}/copy`, alice.token);
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    expect(copied.body.data.copied_from).toBe(listed);

    const started = await post<TBot>(`/api/bots/production/${aliceBot}/start`, alice.token);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'running', network_mode: 'mainnet' });
    expect((await post(`/api/bots/production/${aliceBot}/stop`, alice.token)).status).toBe(200);
  });
});
