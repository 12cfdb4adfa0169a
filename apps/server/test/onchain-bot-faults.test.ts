import { randomBytes } from 'node:crypto';
import { getBase58Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_BOT_CONFIG,
  USDC_MINT,
  type TBot,
  type TBotBalance,
  type TDelegation,
  type TSpotOrder,
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
import { FLIP_STRATEGY } from './helpers/bot-strategies';
import { createRpcFaults } from './helpers/rpc-faults';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';

// An on-chain bot's swap whose outcome the RPC leaves open — the answer to its sendTransaction lost
// after the cluster took it, and the status polls failing — is traded once and recorded once: the
// relay's ticket for it stays sent until the relay's reconcile settles it, and the fill waits for
// that verdict instead of trading again.

const NOW = new Date('2026-01-15T12:00:30Z');
const MINUTE = 60_000;

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

describe('an on-chain bot swap under RPC faults', () => {
  const faults = createRpcFaults();
  let database: TestDatabase;
  let app: TestApp;
  let alice: User;
  let bot: string;
  let runId: string;

  const post = <T>(url: string, user: User, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(user.token) });
  const sql = (text: string) =>
    database.database.db.execute(text) as unknown as Promise<{ rows: Record<string, unknown>[] }>;
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const { body } = await call<never>(app, {
      method: 'POST',
      url: '/rpc',
      payload: { jsonrpc: '2.0', id: 1, method, params },
    });
    return (body as unknown as { result: T }).result;
  };
  const botSignatures = async (bot: string) =>
    (await rpc<{ signature: string }[]>('getSignaturesForAddress', [bot, { commitment: 'confirmed' }])).map(
      (entry) => entry.signature,
    );

  const fills = async () =>
    (await sql(`select seq, side, tx_signature from bot_fills where run_id = '${runId}' order by seq`))
      .rows as { seq: number; side: string; tx_signature: string }[];
  /** Passes (the run's retry wait skipped) until the run holds `count` fills. */
  const passUntilFills = (count: number) =>
    vi.waitFor(
      async () => {
        app.botRunner.forget(runId);
        await app.botRunner.pass();
        expect(await fills()).toHaveLength(count);
      },
      { timeout: 30_000, interval: 20 },
    );

  /** The fee payer of a wire transaction (base64): the key that signed it first. */
  const feePayerOf = (wire: string) =>
    String(
      getCompiledTransactionMessageDecoder().decode(
        getTransactionDecoder().decode(Buffer.from(wire, 'base64')).messageBytes,
      ).staticAccounts[0],
    );

  /** The user's bot key, after approving it to draw 1 SOL (the delegation, signed by the user's wallet). */
  async function delegatedBot(user: User): Promise<string> {
    const key = await call<{ bot_public_key: string }>(app, {
      method: 'GET',
      url: '/api/bot/public-key',
      headers: bearer(user.token),
    });
    const delegation = await post<TDelegation>('/api/delegation/create', user, { amount: 1 });
    const submitted = await post('/api/delegation/submit', user, {
      delegation_id: delegation.body.data.delegation_id,
      signed_transaction: user.wallet.signTransaction(delegation.body.data.unsigned_transaction!),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    return key.body.data.bot_public_key;
  }

  /**
   * A user's Flip bot started on chain, its key holding SOL enough that its first buy draws none
   * (that buy is a funding sell, then the buy itself).
   */
  async function startedFlip(name: string, interval = '1M'): Promise<{ key: string; run: string }> {
    const user = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 100 });
    const key = await delegatedBot(user);
    await rpc('requestAirdrop', [key, 2_000_000_000]);
    const created = await post<TBot>('/api/bots', user, {
      name,
      strategy_type: 'scalper',
      config: { ...DEFAULT_BOT_CONFIG, amount: 0.05, interval, code: FLIP_STRATEGY },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const botId = created.body.data.bot_id;
    expect((await post(`/api/bots/production/${botId}/start`, user)).status).toBe(200);
    const run = (await sql(`select id from bot_runs where bot_id = '${botId}'`)).rows[0]!.id as string;
    return { key, run };
  }

  /** What another server process writes when it has signed fill `seq`'s swap and is about to send it. */
  async function recordedElsewhere(run: string, seq: number): Promise<string> {
    const signature = getBase58Decoder().decode(randomBytes(64));
    const height = await rpc<number>('getBlockHeight', []);
    await sql(
      `insert into bot_orders (run_id, seq, side, base_amount, quote_amount, signature, last_valid_block_height, status, created_at)
       values ('${run}', ${seq}, 'Buy', '50000000', '1', '${signature}', '${height + 150}', 'sending', now())
       on conflict (run_id, seq) do update set signature = excluded.signature, status = 'sending'`,
    );
    return signature;
  }

  const ordersOf = async (run: string) =>
    (await sql(`select seq, signature, status from bot_orders where run_id = '${run}' order by seq`)).rows;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'onchain-bot-faults', MARKET_TICK_MS: '3600000', JOBS: 'off' },
      wrapRpcTransport: faults.wrap,
    });
    alice = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 100 });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('trades a sell whose send answer is lost and whose status polls fail exactly once, and records it once', async () => {
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
    bot = await delegatedBot(alice);
    const started = await post(`/api/bots/production/${botId}/start`, alice);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    runId = (await sql(`select id from bot_runs where bot_id = '${botId}'`)).rows[0]!.id as string;

    // The first candle's fill is a buy (funded by a draw and a swap of its own); it lands cleanly.
    app.clock.advance(MINUTE);
    await app.botRunner.pass();
    const bought = await fills();
    expect(bought.map((fill) => fill.side)).toEqual(['Buy']);

    // The next candle's fill is a sell: its swap is the first transaction the pass sends. The
    // cluster takes it but the answer is lost, and the status polls after it fail.
    const before = await botSignatures(bot);
    faults.failNextSends('drop');
    faults.failStatusPolls(4);
    app.clock.advance(MINUTE);
    await app.botRunner.pass();
    expect(faults.injected()).toBeGreaterThanOrEqual(1);
    // Passes go on while the RPC is still failing and after it recovers, until the sell is recorded.
    await passUntilFills(2);
    expect((await fills()).map((fill) => fill.side)).toEqual(['Buy', 'Sell']);

    // Every fault was met: the lost answer and the four failing status polls.
    expect(faults.injected()).toBe(5);
    const sell = (await fills())[1]!;
    const after = await botSignatures(bot);
    const newSignatures = after.filter((signature) => !before.includes(signature));
    // Traded once: one new transaction of the bot key on the cluster, the recorded one.
    expect(newSignatures).toEqual([sell.tx_signature]);
    const orders = (
      await sql(`select seq, signature, status from bot_orders where run_id = '${runId}' order by seq`)
    ).rows;
    expect(orders.filter((order) => order.seq === sell.seq)).toEqual([
      { seq: sell.seq, signature: sell.tx_signature, status: 'landed' },
    ]);
    // Recorded once: the relay settled its ticket, and the user's order (with its receipt) is there.
    const tickets = (
      await sql(`select status from transaction_tickets where signature = '${sell.tx_signature}'`)
    ).rows;
    expect(tickets).toEqual([{ status: 'landed' }]);
    const order = await post<TSpotOrder>('/api/trading/spot/order', alice, { tx_hash: sell.tx_signature });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const userOrders = (await sql(`select id from spot_orders where tx_hash = '${sell.tx_signature}'`)).rows;
    expect(userOrders).toHaveLength(1);

    // Later passes (no new candle) trade nothing more for it.
    app.botRunner.forget(runId);
    await app.botRunner.pass();
    expect(await botSignatures(bot)).toEqual(after);
  });

  it('makes a sell again, with a new transaction, once the relay expired the one the cluster never got', async () => {
    app.clock.advance(MINUTE);
    await passUntilFills(3);
    expect((await fills()).map((fill) => fill.side)).toEqual(['Buy', 'Sell', 'Buy']);
    const before = await botSignatures(bot);
    const injected = faults.injected();
    faults.failNextSends('lost');
    app.clock.advance(MINUTE);
    await app.botRunner.pass();
    expect(faults.injected()).toBe(injected + 1);
    const [unsent] = (await sql(`select signature from bot_orders where run_id = '${runId}' and seq = 3`))
      .rows as { signature: string }[];
    // Nothing rebroadcast it before its blockhash expired: the relay's reconcile expires its ticket,
    // and only then is the fill made again.
    await app.cluster!.advanceSlots(400);
    await passUntilFills(4);
    const sell = (await fills())[3]!;
    expect(sell.side).toBe('Sell');
    expect(sell.tx_signature).not.toBe(unsent!.signature);
    expect((await botSignatures(bot)).filter((signature) => !before.includes(signature))).toEqual([
      sell.tx_signature,
    ]);
    const tickets = (
      await sql(
        `select signature, status from transaction_tickets where signature in ('${unsent!.signature}', '${sell.tx_signature}') order by status`,
      )
    ).rows;
    expect(tickets).toEqual([
      { signature: unsent!.signature, status: 'expired' },
      { signature: sell.tx_signature, status: 'landed' },
    ]);
    expect(
      (await sql(`select signature, status from bot_orders where run_id = '${runId}' and seq = 3`)).rows,
    ).toEqual([{ signature: sell.tx_signature, status: 'landed' }]);
  });

  it('sells to fund a buy once when that sell never reached the cluster: it waits for its verdict, never sells again', async () => {
    // The bot holds no USDC, so the next buy is funded by a sell; and SOL enough that it draws none,
    // so that sell is the first transaction the pass sends.
    const balance = await call<TBotBalance>(app, {
      method: 'GET',
      url: '/api/bot/balance',
      headers: bearer(alice.token),
    });
    const usdc = balance.body.data.tokens.find((token) => token.mint === USDC_MINT)?.amount ?? 0;
    if (usdc > 0) {
      const withdrawn = await post('/api/bot/withdraw', alice, { amount: usdc, token_mint: USDC_MINT });
      expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    }
    await rpc('requestAirdrop', [bot, 1_000_000_000]);
    const before = await botSignatures(bot);
    faults.failNextSends('lost');
    app.clock.advance(MINUTE);
    await app.botRunner.pass();
    const [fundingSell] = (
      await sql(
        `select signature from transaction_tickets where wallet_address = '${bot}' and status = 'sending'`,
      )
    ).rows as { signature: string }[];
    expect(fundingSell, 'the funding sell is in flight').toBeDefined();
    // The relay's reconcile sends it again and it lands; the buy is then paid from its USDC.
    await passUntilFills(5);
    const buy = (await fills())[4]!;
    expect(buy.side).toBe('Buy');
    expect((await botSignatures(bot)).filter((signature) => !before.includes(signature)).sort()).toEqual(
      [fundingSell!.signature, buy.tx_signature].sort(),
    );
  });

  it('draws once for a buy when that draw never reached the cluster: it waits for its verdict, never draws again', async () => {
    // The next fill is a sell; trade it cleanly first, so the one after is a buy.
    app.clock.advance(MINUTE);
    await passUntilFills(6);
    // The bot then holds no USDC and 0.01 SOL to spend: the buy's funding sell needs a draw first.
    const balance = (
      await call<TBotBalance>(app, { method: 'GET', url: '/api/bot/balance', headers: bearer(alice.token) })
    ).body.data;
    const usdc = balance.tokens.find((token) => token.mint === USDC_MINT)?.amount ?? 0;
    if (usdc > 0) {
      const withdrawn = await post('/api/bot/withdraw', alice, { amount: usdc, token_mint: USDC_MINT });
      expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    }
    const sol = await post('/api/bot/withdraw', alice, {
      amount: Number((balance.withdrawable - 0.01).toFixed(9)),
    });
    expect(sol.status, JSON.stringify(sol.body)).toBe(200);
    const draws = async () =>
      (
        await sql(
          `select signature, status from server_tickets where kind = 'bot_transfer' and payload->>'purpose' = 'draw' order by created_at`,
        )
      ).rows as { signature: string; status: string }[];
    const drawsBefore = (await draws()).length;

    // The draw's send never reaches the cluster, and the status poll after it fails: its verdict is unknown.
    faults.failNextSends('lost');
    faults.failStatusPolls(1);
    app.clock.advance(MINUTE);
    await app.botRunner.pass();
    const [lost] = (await draws()).slice(drawsBefore);
    expect(lost, 'the draw is in flight').toMatchObject({ status: 'sending' });

    // The relay's reconcile sends it again and it lands; the buy is then funded from what it drew.
    await passUntilFills(7);
    expect((await fills())[6]!.side).toBe('Buy');
    expect((await draws()).slice(drawsBefore)).toEqual([{ signature: lost!.signature, status: 'landed' }]);
  });

  it("trades two runs' fills of one user one at a time: the second sends nothing while the first's swap is held", async () => {
    const bob = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 100 });
    const bobBot = await delegatedBot(bob);
    // SOL enough that neither buy draws: each is a funding sell and the buy, sent by the one bot key.
    await rpc('requestAirdrop', [bobBot, 2_000_000_000]);
    const runs: string[] = [];
    for (const name of ['Flip A', 'Flip B']) {
      const created = await post<TBot>('/api/bots', bob, {
        name,
        strategy_type: 'scalper',
        config: { ...DEFAULT_BOT_CONFIG, amount: 0.05, interval: '1M', code: FLIP_STRATEGY },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const started = await post(`/api/bots/production/${created.body.data.bot_id}/start`, bob);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      runs.push(
        (await sql(`select id from bot_runs where bot_id = '${created.body.data.bot_id}'`)).rows[0]!
          .id as string,
      );
    }
    const [first, second] = faults.hold(
      2,
      (method, params) => method === 'sendTransaction' && feePayerOf(String(params[0])) === bobBot,
    );

    // Both runs' first fills are buys at the same close, and the first send of the bot key is held.
    app.clock.advance(MINUTE);
    const pass = app.botRunner.pass();
    await first!.reached;
    const raced = await Promise.race([
      second!.reached.then(() => 'the other run sent too'),
      new Promise((resolve) => setTimeout(() => resolve('one at a time'), 1_500)),
    ]);
    expect(raced).toBe('one at a time');
    first!.release();
    second!.release();
    await pass;
    await faults.clear();
    for (const run of runs) {
      const rows = (await sql(`select side from bot_fills where run_id = '${run}'`)).rows;
      expect(rows, run).toEqual([{ side: 'Buy' }]);
    }
  });

  it('sends no trade after its bot was stopped while the pass was funding it', async () => {
    const carol = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 100 });
    const carolBot = await delegatedBot(carol);
    // SOL enough that the buy draws none: it is a funding sell and then the buy itself.
    await rpc('requestAirdrop', [carolBot, 2_000_000_000]);
    const created = await post<TBot>('/api/bots', carol, {
      name: 'Flip C',
      strategy_type: 'scalper',
      config: { ...DEFAULT_BOT_CONFIG, amount: 0.05, interval: '1M', code: FLIP_STRATEGY },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const botId = created.body.data.bot_id;
    expect((await post(`/api/bots/production/${botId}/start`, carol)).status).toBe(200);
    const run = (await sql(`select id from bot_runs where bot_id = '${botId}'`)).rows[0]!.id as string;
    const before = await botSignatures(carolBot);
    const [fundingSell] = faults.hold(
      1,
      (method, params) => method === 'sendTransaction' && feePayerOf(String(params[0])) === carolBot,
    );

    // The owner stops the bot while its buy's funding sell is on its way to the node
    app.clock.advance(MINUTE);
    const pass = app.botRunner.pass();
    await fundingSell!.reached;
    expect((await post(`/api/bots/production/${botId}/stop`, carol)).status).toBe(200);
    fundingSell!.release();
    await pass;

    // Then the funding sell lands, and the buy is never sent nor recorded
    const sent = (await botSignatures(carolBot)).filter((signature) => !before.includes(signature));
    expect(sent).toHaveLength(1);
    expect((await sql(`select seq from bot_orders where run_id = '${run}' and side = 'Buy'`)).rows).toEqual(
      [],
    );
    expect((await sql(`select seq from bot_fills where run_id = '${run}'`)).rows).toEqual([]);
  });

  // Another server process may run the same bot pass: a job's lease lapses while a pass still funds a
  // fill (a draw waits seconds to confirm), and the next process takes the run over.

  it("waits on a fill's swap another process recorded and has not sent yet, and trades only once that swap has expired", async () => {
    const { key, run } = await startedFlip('Flip D');
    const before = await botSignatures(key);
    const elsewhere = await recordedElsewhere(run, 0);

    // No ticket was ever sent under its signature: the other process may send it any moment
    app.clock.advance(MINUTE);
    app.botRunner.forget(run);
    await app.botRunner.pass();
    expect(await botSignatures(key)).toEqual(before);
    expect(await ordersOf(run)).toEqual([{ seq: 0, signature: elsewhere, status: 'sending' }]);

    // Once its blockhash has expired it can never land, and the fill is traded
    await app.cluster!.advanceSlots(400);
    const traded = await vi.waitFor(
      async () => {
        app.botRunner.forget(run);
        await app.botRunner.pass();
        const rows = (await sql(`select tx_signature from bot_fills where run_id = '${run}'`)).rows;
        expect(rows).toHaveLength(1);
        return rows[0]!.tx_signature as string;
      },
      { timeout: 30_000, interval: 20 },
    );
    expect(traded).not.toBe(elsewhere);
    expect(await ordersOf(run)).toEqual([{ seq: 0, signature: traded, status: 'landed' }]);
  });

  it('sends no swap for a fill another process recorded one for while this one funded it', async () => {
    const { key, run } = await startedFlip('Flip E');
    const before = await botSignatures(key);
    const [fundingSell] = faults.hold(
      1,
      (method, params) => method === 'sendTransaction' && feePayerOf(String(params[0])) === key,
    );
    app.clock.advance(MINUTE);
    const pass = app.botRunner.pass();
    await fundingSell!.reached;
    const elsewhere = await recordedElsewhere(run, 0);
    fundingSell!.release();
    await pass;

    // Only the funding sell went out; the fill's record is still the other process's swap
    expect((await botSignatures(key)).filter((signature) => !before.includes(signature))).toHaveLength(1);
    expect(await ordersOf(run)).toEqual([{ seq: 0, signature: elsewhere, status: 'sending' }]);
    expect((await sql(`select seq from bot_fills where run_id = '${run}'`)).rows).toEqual([]);
  });

  it("trades nothing from a bot key another process holds, and takes the key over once that process's claim lapsed", async () => {
    const { key, run } = await startedFlip('Flip F');
    const userId = (await sql(`select user_id from bot_runs where id = '${run}'`)).rows[0]!.user_id as string;
    const before = await botSignatures(key);
    const claimUntil = (at: Date) =>
      sql(
        `update bot_keys set trading_holder = 'another process', trading_until = '${at.toISOString()}' where user_id = '${userId}'`,
      );
    await claimUntil(new Date(app.clock.now().getTime() + 2 * MINUTE));

    app.clock.advance(MINUTE);
    app.botRunner.forget(run);
    await app.botRunner.pass();
    expect(await botSignatures(key)).toEqual(before);
    expect(await ordersOf(run)).toEqual([]);

    // The other process's claim lapses (it crashed, or its pass outlived the claim)
    app.clock.advance(2 * MINUTE);
    await vi.waitFor(
      async () => {
        app.botRunner.forget(run);
        await app.botRunner.pass();
        expect((await sql(`select seq from bot_fills where run_id = '${run}'`)).rows.length).toBeGreaterThan(
          0,
        );
      },
      { timeout: 30_000, interval: 20 },
    );
    // and the key is free again once the pass is done
    expect((await sql(`select trading_holder from bot_keys where user_id = '${userId}'`)).rows).toEqual([
      { trading_holder: null },
    ]);
  });

  it('sends no swap once another process took the bot key over while this one funded the fill', async () => {
    const { key, run } = await startedFlip('Flip G');
    const userId = (await sql(`select user_id from bot_runs where id = '${run}'`)).rows[0]!.user_id as string;
    const before = await botSignatures(key);
    const [fundingSell] = faults.hold(
      1,
      (method, params) => method === 'sendTransaction' && feePayerOf(String(params[0])) === key,
    );
    app.clock.advance(MINUTE);
    const pass = app.botRunner.pass();
    await fundingSell!.reached;
    await sql(
      `update bot_keys set trading_holder = 'another process', trading_until = '${new Date(app.clock.now().getTime() + MINUTE).toISOString()}' where user_id = '${userId}'`,
    );
    fundingSell!.release();
    await pass;

    expect((await botSignatures(key)).filter((signature) => !before.includes(signature))).toHaveLength(1);
    expect(await ordersOf(run)).toEqual([]);
    // Its claim is the other process's still: this one released nothing of it
    expect((await sql(`select trading_holder from bot_keys where user_id = '${userId}'`)).rows).toEqual([
      { trading_holder: 'another process' },
    ]);
  });

  // Each pass of a run waiting on a swap rebuilds it from its first candle: through an RPC outage
  // (until the swap's blockhash expires) the job must not do that on every wake-up.
  it('rebuilds a run waiting on a swap in flight after 250 ms, then twice as long each time up to 5 s', async () => {
    // (A 5-minute run, so that its passes are told from the other runs' by their candles' interval.)
    const { run } = await startedFlip('Flip H', '5M');
    await recordedElsewhere(run, 0);
    const candles = vi.spyOn(app.services.market, 'getClosedPairCandles');
    // A pass that rebuilds the run reads its candles from before its first one (its strategy's warm-up).
    const rebuilds = () => {
      const froms = candles.mock.calls.filter(([, interval]) => interval === '5M').map(([, , from]) => from);
      return froms.filter((from) => from === Math.min(...froms)).length;
    };
    const job = app.botRunner.job();
    const wake = async () => {
      await job.run(new AbortController().signal);
      await app.botRunner.idle();
    };
    try {
      app.clock.advance(5 * MINUTE);
      app.botRunner.forget(run);
      await wake();
      expect(rebuilds()).toBe(1);
      expect(await ordersOf(run)).toEqual([expect.objectContaining({ seq: 0, status: 'sending' })]);

      for (const [index, wait] of [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000].entries()) {
        app.clock.advance(wait - 1);
        await wake();
        expect(rebuilds(), `${wait - 1} ms after stall ${index + 1}`).toBe(index + 1);
        app.clock.advance(1);
        await wake();
        expect(rebuilds(), `${wait} ms after stall ${index + 1}`).toBe(index + 2);
      }
    } finally {
      candles.mockRestore();
    }
  });
});
