import {
  findAssociatedTokenPda,
  getCloseAccountInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { address, compileTransaction, createNoopSigner, getBase64EncodedWireTransaction } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_CONFIG,
  WRAPPED_SOL_MINT,
  type TBot,
  type TBotBalance,
  type TBotDetail,
  type TPortfolio,
  type TUnwrapTransaction,
  type TDelegation,
  type TProductionStatus,
} from '@solterm/contracts';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { messageOnLatestBlockhash } from './helpers/cluster-rpc';
import { FLIP_STRATEGY } from './helpers/bot-strategies';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';

// On-chain bots against the embedded cluster: the bot key, a delegation approved in the wallet
// (an SPL approve of wrapped SOL, enforced by the token program), a bot trading from its own key
// through the relay, withdrawals to the owner only, and a revocation that stops it.

const NOW = new Date('2026-01-15T12:00:30Z');
const MINUTE = 60_000;
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

describe('on-chain bots on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;
  let alice: User;
  let bob: User;

  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const { body } = await call<never>(app, {
      method: 'POST',
      url: '/rpc',
      payload: { jsonrpc: '2.0', id: 1, method, params },
    });
    return (body as unknown as { result: T }).result;
  };
  const get = <T>(url: string, user: User) =>
    call<T>(app, { method: 'GET', url, headers: bearer(user.token) });
  const post = <T>(url: string, user: User, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(user.token) });
  const pass = () => app.botRunner.pass();
  const lamports = async (address: string) => (await rpc<{ value: number }>('getBalance', [address])).value;
  const usdcOf = async (owner: string) => {
    const { value } = await rpc<{
      value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[];
    }>('getTokenAccountsByOwner', [
      owner,
      { mint: USDC },
      { encoding: 'jsonParsed', commitment: 'confirmed' },
    ]);
    return value.reduce((sum, row) => sum + BigInt(row.account.data.parsed.info.tokenAmount.amount), 0n);
  };
  const wrappedAccount = async (owner: string) => {
    const { value } = await rpc<{
      value: { account: { data: { parsed: { info: Record<string, unknown> } } } }[];
    }>('getTokenAccountsByOwner', [owner, { mint: WRAPPED_SOL_MINT }, { encoding: 'jsonParsed' }]);
    return value[0]?.account.data.parsed.info as
      | { delegate?: string; delegatedAmount?: { amount: string }; tokenAmount: { amount: string } }
      | undefined;
  };

  const walletUser = (): Promise<User> => fundedWalletUser(app, { amount_sol: 5, amount_usdc: 100 });

  async function approve(user: User, amount: number): Promise<TDelegation> {
    const created = await post<TDelegation>('/api/delegation/create', user, { amount });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const submitted = await post<TDelegation & { transaction_hash: string }>('/api/delegation/submit', user, {
      delegation_id: created.body.data.delegation_id,
      signed_transaction: user.wallet.signTransaction(created.body.data.unsigned_transaction!),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    return submitted.body.data;
  }

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'onchain-bots', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    alice = await walletUser();
    bob = await walletUser();
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('gives each user one bot key, held by the server', async () => {
    const first = await get<{ bot_public_key: string }>('/api/bot/public-key', alice);
    const again = await get<{ bot_public_key: string }>('/api/bot/public-key', alice);
    const other = await get<{ bot_public_key: string }>('/api/bot/public-key', bob);
    expect(first.status).toBe(200);
    expect(again.body.data.bot_public_key).toBe(first.body.data.bot_public_key);
    expect(other.body.data.bot_public_key).not.toBe(first.body.data.bot_public_key);
    const anonymous = await call(app, { method: 'GET', url: '/api/bot/public-key' });
    expect(anonymous.status).toBe(401);
    const stored = (await database.database.db.execute(
      `select encrypted_secret from bot_keys`,
    )) as unknown as { rows: { encrypted_secret: string }[] };
    expect(stored.rows).toHaveLength(2);
  });

  it('refuses delegations outside the rules, and moves nothing', async () => {
    const before = await lamports(alice.wallet.address);
    for (const amount of [0.05, 100.5, 0]) {
      const { status, body } = await post('/api/delegation/create', alice, { amount });
      expect(status).toBe(400);
      expect(body.error).toContain('Delegation amount must be between 0.1 and 100 SOL');
    }
    // Part 2 §5: steps of 0.1 SOL, in both spellings (0.3 is one, decimal arithmetic).
    for (const amount of [0.15, 1.01]) {
      const { status, body } = await post('/api/delegation/create', alice, { amount });
      expect(status).toBe(400);
      expect(body.error).toContain('Delegation amount must be a multiple of 0.1 SOL');
    }
    const notNumber = await post('/api/delegation/create', alice, { amount: 'one' });
    expect(notNumber.status).toBe(400);
    const key = (await get<{ bot_public_key: string }>('/api/bot/public-key', alice)).body.data
      .bot_public_key;
    const bobKey = (await get<{ bot_public_key: string }>('/api/bot/public-key', bob)).body.data
      .bot_public_key;
    const spelled = {
      wallet_address: alice.wallet.address,
      token_mint: WRAPPED_SOL_MINT,
      amount: 1e9,
      bot_public_key: key,
    };
    const cases: [object, string][] = [
      [{ ...spelled, wallet_address: bob.wallet.address }, 'DELEGATION__WALLET_MISMATCH'],
      [
        { ...spelled, token_mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
        'DELEGATION__TOKEN_UNSUPPORTED',
      ],
      [{ ...spelled, bot_public_key: bobKey }, 'DELEGATION__BOT_KEY_MISMATCH'],
    ];
    for (const [payload, code] of cases) {
      const { status, body } = await post('/api/delegation/create-transaction', alice, payload);
      expect(status).toBe(400);
      expect(body.code).toBe(code);
    }
    const offStep = await post('/api/delegation/create-transaction', alice, {
      ...spelled,
      amount: 150_000_000,
    });
    expect(offStep.status).toBe(400);
    expect(offStep.body.error).toContain('Delegation amount must be a multiple of 0.1 SOL');
    expect((await post('/api/delegation/create', alice, { amount: 0.3 })).status).toBe(200);
    const tooMuch = await post('/api/delegation/create', alice, { amount: 99 });
    expect(tooMuch.body.code).toBe('DELEGATION__INSUFFICIENT_SOL');
    expect(await lamports(alice.wallet.address)).toBe(before);
  });

  it('starts only after an approval; trades on chain from the bot key; withdraws to the owner only; a revocation stops it', async () => {
    const created = await post<TBot>('/api/bots', alice, {
      name: 'Flip',
      strategy_type: 'scalper',
      config: {
        ...DEFAULT_BOT_CONFIG,
        amount: 0.05,
        interval: '1M',
        code: FLIP_STRATEGY,
        stop_loss_percentage: 50,
        take_profit_percentage: 50,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const botId = created.body.data.bot_id;
    const refused = await post(`/api/bots/production/${botId}/start`, alice);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error).toContain('delegation approval');

    // A signed transaction that is not the one built is refused, and nothing lands.
    const pending = await post<TDelegation>('/api/delegation/create', alice, { amount: 1 });
    const other = await post<TDelegation>('/api/delegation/create', alice, { amount: 0.5 });
    const swapped = await post('/api/delegation/submit', alice, {
      delegation_id: pending.body.data.delegation_id,
      signed_transaction: alice.wallet.signTransaction(other.body.data.unsigned_transaction!),
    });
    expect(swapped.status).toBe(400);
    expect(swapped.body.code).toBe('TRADING__TRANSACTION_MODIFIED');
    expect(await wrappedAccount(alice.wallet.address)).toBeUndefined();

    const bot = (await get<{ bot_public_key: string }>('/api/bot/public-key', alice)).body.data
      .bot_public_key;
    const delegation = await approve(alice, 1);
    expect(delegation).toMatchObject({
      status: 'active',
      amount: 1,
      bot_public_key: bot,
      wallet_address: alice.wallet.address,
    });
    const wrapped = await wrappedAccount(alice.wallet.address);
    expect(wrapped).toMatchObject({
      delegate: bot,
      delegatedAmount: { amount: '1000000000' },
      tokenAmount: { amount: '1000000000' },
    });
    expect(await lamports(bot)).toBe(10_000_000);

    const started = await post<TBot>(`/api/bots/production/${botId}/start`, alice);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'running', is_running: true, network_mode: 'mainnet' });

    app.clock.advance(4 * MINUTE);
    await pass();
    const status = await get<TProductionStatus>(`/api/bots/production/${botId}/status`, alice);
    expect(status.status).toBe(200);
    const trades = status.body.data.trades;
    expect(trades.length).toBeGreaterThanOrEqual(3);
    expect(trades.every((trade) => typeof trade.transaction_hash === 'string')).toBe(true);
    // The swaps are the bot key's own transactions on the cluster.
    const signatures = (
      await rpc<{ signature: string }[]>('getSignaturesForAddress', [bot, { commitment: 'confirmed' }])
    ).map((s) => s.signature);
    for (const trade of trades) expect(signatures).toContain(trade.transaction_hash);
    // It drew from the approval, which the token program lowered as it did.
    const after = await wrappedAccount(alice.wallet.address);
    expect(BigInt(after!.delegatedAmount!.amount)).toBeLessThan(1_000_000_000n);
    expect(BigInt(after!.tokenAmount.amount)).toBe(BigInt(after!.delegatedAmount!.amount));

    // The owner's detail view lists the same fills, each with its swap's transaction.
    const detail = (await get<TBotDetail>(`/api/bots/${botId}/detail?limit=100`, alice)).body.data;
    expect(detail.run).toMatchObject({ mode: 'mainnet', status: 'running', fills: trades.length });
    expect(detail.fills.items.map((fill) => fill.transaction_hash)).toEqual(
      trades.map((trade) => trade.transaction_hash),
    );
    expect((await get(`/api/bots/${botId}/detail`, bob)).status).toBe(404);

    // A pass that replays from the checkpoint (this process forgot the run) trades nothing twice.
    const runs = (await database.database.db.execute(
      `select id from bot_runs where bot_id = '${botId}'`,
    )) as unknown as { rows: { id: string }[] };
    app.botRunner.forget(runs.rows[0]!.id);
    await pass();
    const again = await get<TProductionStatus>(`/api/bots/production/${botId}/status`, alice);
    expect(again.body.data.trades).toEqual(trades);

    // A crash after the last swap was sent and before the pass recorded it (kill -9): its order is
    // still 'sending', its fill and the checkpoint are not written. The next pass finds the swap on
    // chain and records it — the same transaction, nothing traded again.
    const sql = (text: string) =>
      database.database.db.execute(text) as unknown as Promise<{ rows: Record<string, unknown>[] }>;
    const runId = runs.rows[0]!.id;
    const [last] = (
      await sql(
        `select seq, extract(epoch from time)::bigint as t from bot_fills where run_id = '${runId}' order by seq desc limit 1`,
      )
    ).rows as { seq: number; t: string }[];
    await sql(`update bot_orders set status = 'sending' where run_id = '${runId}' and seq = ${last!.seq}`);
    await sql(`delete from bot_fills where run_id = '${runId}' and seq = ${last!.seq}`);
    await sql(`update bot_runs set last_candle = ${Number(last!.t) - 60} where id = '${runId}'`);
    const sent = (await rpc<unknown[]>('getSignaturesForAddress', [bot, { commitment: 'confirmed' }])).length;
    app.botRunner.forget(runId);
    await pass();
    const reconciled = await get<TProductionStatus>(`/api/bots/production/${botId}/status`, alice);
    expect(reconciled.body.data.trades).toEqual(trades);
    expect((await rpc<unknown[]>('getSignaturesForAddress', [bot, { commitment: 'confirmed' }])).length).toBe(
      sent,
    );

    const listed = (await get<TProductionStatus[]>('/api/bots/production/status', alice)).body.data;
    expect(listed.find((entry) => entry.bot_id === botId)?.total_trades).toBe(status.body.data.total_trades);
    expect((await get<TProductionStatus[]>('/api/bots/production/status', bob)).body.data).toEqual([]);

    // Withdraw: the spec's rules, then SOL to the owner's wallet.
    const balance = (await get<TBotBalance>('/api/bot/balance', alice)).body.data;
    expect(balance.bot_public_key).toBe(bot);
    expect(balance.allowance).toBeCloseTo(Number(after!.delegatedAmount!.amount) / 1e9, 9);
    const rules: [unknown, string][] = [
      [0, 'Please enter a valid withdrawal amount'],
      [-1, 'Please enter a valid withdrawal amount'],
      [0.00005, 'Minimum withdrawal amount is 0.0001 SOL to cover transaction fees'],
      [1000, `Insufficient bot balance. Available: ${balance.balance} SOL, Requested: 1000 SOL`],
      [
        balance.balance - 0.0005,
        'The bot must keep at least 0.00089 SOL (rent-exempt reserve); withdraw less',
      ],
    ];
    for (const [amount, message] of rules) {
      const { status: code, body } = await post('/api/bot/withdraw', alice, { amount });
      expect(code, String(amount)).toBe(400);
      expect(body.error).toBe(message);
    }
    expect((await get<TBotBalance>('/api/bot/balance', alice)).body.data.lamports).toBe(balance.lamports);
    const ownerBefore = await lamports(alice.wallet.address);
    const withdrawn = await post<{ transaction_hash: string; to_address: string }>(
      '/api/bot/withdraw',
      alice,
      { amount: 0.001 },
    );
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.data.to_address).toBe(alice.wallet.address);
    expect(await lamports(alice.wallet.address)).toBe(ownerBefore + 1_000_000);
    // The USDC the bot holds after its sells goes back to the owner too, to the unit.
    const usdc = (await get<TBotBalance>('/api/bot/balance', alice)).body.data.tokens.find(
      (token) => token.symbol === 'USDC',
    );
    expect(usdc?.amount).toBeGreaterThan(0);
    const usdcBefore = await usdcOf(alice.wallet.address);
    const tooMuchUsdc = await post('/api/bot/withdraw', alice, {
      amount: usdc!.amount + 1,
      token_mint: USDC,
    });
    expect(tooMuchUsdc.body.error).toBe(
      `Insufficient bot balance. Available: ${usdc!.amount} USDC, Requested: ${usdc!.amount + 1} USDC`,
    );
    const usdcOut = await post<{ token_mint: string; balance: number }>('/api/bot/withdraw', alice, {
      amount: usdc!.amount,
      token_mint: USDC,
    });
    expect(usdcOut.status, JSON.stringify(usdcOut.body)).toBe(200);
    expect(usdcOut.body.data).toMatchObject({ token_mint: USDC, balance: 0 });
    expect(await usdcOf(alice.wallet.address)).toBe(usdcBefore + BigInt(Math.round(usdc!.amount * 1e6)));
    // Bob's bot holds nothing: nothing to withdraw.
    const empty = await post('/api/bot/withdraw', bob, { amount: 0.001 });
    expect(empty.body.error).toBe('Bot has no balance to withdraw');

    // Revoke: the wallet signs an SPL revoke; the bot stops and can draw nothing more.
    const revoke = await call<TDelegation>(app, {
      method: 'DELETE',
      url: `/api/delegation/revoke/${delegation.delegation_id}`,
      headers: bearer(alice.token),
    });
    expect(revoke.status, JSON.stringify(revoke.body)).toBe(200);
    const revoked = await post<TDelegation>('/api/delegation/submit', alice, {
      delegation_id: delegation.delegation_id,
      signed_transaction: alice.wallet.signTransaction(revoke.body.data.unsigned_transaction!),
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.data.status).toBe('revoked');
    expect((await wrappedAccount(alice.wallet.address))?.delegate).toBeUndefined();
    const stopped = await get<TProductionStatus>(`/api/bots/production/${botId}/status`, alice);
    expect(stopped.body.data).toMatchObject({
      status: 'stopped',
      message: 'The bot stopped: its delegation was revoked',
    });
    const list = (await get<TDelegation[]>('/api/delegation/list', alice)).body.data;
    expect(list.find((entry) => entry.delegation_id === delegation.delegation_id)?.status).toBe('revoked');
    const twice = await call(app, {
      method: 'DELETE',
      url: `/api/delegation/revoke/${delegation.delegation_id}`,
      headers: bearer(alice.token),
    });
    expect(twice.body.code).toBe('DELEGATION__NOT_ACTIVE');
    const foreign = await call(app, {
      method: 'DELETE',
      url: `/api/delegation/revoke/${delegation.delegation_id}`,
      headers: bearer(bob.token),
    });
    expect(foreign.status).toBe(404);
    const restart = await post(`/api/bots/production/${botId}/start`, alice);
    expect(restart.body.code).toBe('BOTS__DELEGATION_REQUIRED');
  });

  it('shows the wrapped SOL a revoke leaves as wSOL at SOL’s price, unwraps it, and a revoke can unwrap too', async () => {
    const user = await walletUser();
    const portfolio = async () => (await get<TPortfolio>('/api/wallet/portfolio', user)).body.data;
    const execute = (unsigned: string) =>
      post('/api/trading/execute-signed-transaction', user, {
        signed_transaction: user.wallet.signTransaction(unsigned),
      });
    expect((await post('/api/wallet/unwrap-sol', user)).body.code).toBe('WALLET__NOTHING_TO_UNWRAP');
    const delegation = await approve(user, 0.5);
    // Unwrapping would close the account the bot is approved on: refused until revoked.
    const delegated = await post('/api/wallet/unwrap-sol', user);
    expect(delegated.status).toBe(409);
    expect(delegated.body.error).toContain('Revoke the delegation first');
    const revoke = await call<TDelegation>(app, {
      method: 'DELETE',
      url: `/api/delegation/revoke/${delegation.delegation_id}`,
      headers: bearer(user.token),
    });
    const revoked = await post('/api/delegation/submit', user, {
      delegation_id: delegation.delegation_id,
      signed_transaction: user.wallet.signTransaction(revoke.body.data.unsigned_transaction!),
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);

    const held = await portfolio();
    expect(held.tokens.filter((token) => token.symbol === 'SOL')).toEqual([]);
    const wsol = held.tokens.find((token) => token.mint_address === WRAPPED_SOL_MINT)!;
    expect(wsol).toMatchObject({ symbol: 'wSOL', name: 'Wrapped SOL', balance: 0.5 });
    expect(wsol.price_usd).toBe(held.sol_price_usd);
    expect(wsol.value_usd).toBeCloseTo(0.5 * held.sol_price_usd, 2);

    const before = await lamports(user.wallet.address);
    const built = await post<TUnwrapTransaction>('/api/wallet/unwrap-sol', user);
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body.data).toMatchObject({ amount: 0.5, wallet_address: user.wallet.address });
    const executed = await execute(built.body.data.unsigned_transaction);
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    expect(await wrappedAccount(user.wallet.address)).toBeUndefined();
    expect(await lamports(user.wallet.address)).toBe(
      before + Math.round(built.body.data.sol_returned * 1e9) - 5000,
    );
    expect(
      (await portfolio()).tokens.find((token) => token.mint_address === WRAPPED_SOL_MINT),
    ).toBeUndefined();

    // Revoke with ?unwrap=true: one transaction revokes and returns the wrapped SOL as SOL.
    const second = await approve(user, 0.2);
    const both = await call<TDelegation>(app, {
      method: 'DELETE',
      url: `/api/delegation/revoke/${second.delegation_id}?unwrap=true`,
      headers: bearer(user.token),
    });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.data.instructions).toHaveLength(2);
    expect(both.body.data.instructions[1]).toContain('Unwrap');
    const beforeBoth = await lamports(user.wallet.address);
    const submitted = await post<TDelegation>('/api/delegation/submit', user, {
      delegation_id: second.delegation_id,
      signed_transaction: user.wallet.signTransaction(both.body.data.unsigned_transaction!),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data.status).toBe('revoked');
    expect(await wrappedAccount(user.wallet.address)).toBeUndefined();
    expect(await lamports(user.wallet.address)).toBeGreaterThan(beforeBoth + 200_000_000);
    const badFlag = await call(app, {
      method: 'DELETE',
      url: `/api/delegation/revoke/${second.delegation_id}?unwrap=yes`,
      headers: bearer(user.token),
    });
    expect(badFlag.status).toBe(400);
  });

  it('stops a bot whose allowance cannot pay for its trade, with a message saying so; stops one on request', async () => {
    const user = await walletUser();
    const greedy = await post<TBot>('/api/bots', user, {
      name: 'Greedy',
      strategy_type: 'scalper',
      config: { ...DEFAULT_BOT_CONFIG, amount: 0.05, interval: '1M', code: FLIP_STRATEGY },
    });
    await approve(user, 0.2);
    const modest = await post<TBot>('/api/bots', user, {
      name: 'Modest',
      strategy_type: 'scalper',
      config: { ...DEFAULT_BOT_CONFIG, amount: 0.02, interval: '1M', code: FLIP_STRATEGY },
    });
    const id = modest.body.data.bot_id;
    expect((await post<TBot>(`/api/bots/production/${id}/start`, user)).status).toBe(200);
    const stopped = await post<TBot>(`/api/bots/production/${id}/stop`, user);
    expect(stopped.status).toBe(200);
    expect(stopped.body.data).toMatchObject({ status: 'stopped', is_running: false });
    const foreign = await post(`/api/bots/production/${id}/stop`, alice);
    expect(foreign.status).toBe(404);
    const started = await post<TBot>(`/api/bots/production/${greedy.body.data.bot_id}/start`, user);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const twice = await post(`/api/bots/production/${greedy.body.data.bot_id}/start`, user);
    expect(twice.body.code).toBe('BOTS__ALREADY_RUNNING');
    // The owner unwraps their wrapped SOL (closes the account) behind the bot's back: the approval
    // still stands, but there is nothing left to draw.
    const owner = createNoopSigner(address(user.wallet.address));
    const [account] = await findAssociatedTokenPda({
      owner: owner.address,
      mint: address(WRAPPED_SOL_MINT),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const message = await messageOnLatestBlockhash(
      (method, params) => rpc<unknown>(method, params).then((result) => ({ result })),
      owner,
      [getCloseAccountInstruction({ account, destination: owner.address, owner })],
    );
    const signed = user.wallet.signTransaction(getBase64EncodedWireTransaction(compileTransaction(message)));
    await rpc('sendTransaction', [signed, { encoding: 'base64' }]);
    await expect.poll(() => wrappedAccount(user.wallet.address), { timeout: 10_000 }).toBeUndefined();
    app.clock.advance(2 * MINUTE);
    await pass();
    const status = await get<TProductionStatus>(
      `/api/bots/production/${greedy.body.data.bot_id}/status`,
      user,
    );
    expect(status.body.data.status).toBe('stopped');
    expect(status.body.data.message).toMatch(/^The bot stopped: its delegation allowance is used up/);
    expect(status.body.data.trades).toEqual([]);
  });
});
