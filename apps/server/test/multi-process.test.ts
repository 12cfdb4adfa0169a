/**
 * Several processes on one PostgreSQL and one chain, as real child processes: a standalone cluster
 * (`npm run localnet`), two API processes (`npm start`'s server) and one `npm run worker`. Limit
 * orders placed through either API are filled by whichever process holds the keeper job; killing
 * the holder (SIGKILL, no goodbye: the worker or API B, whichever has it) moves the job to the other
 * within the lease expiry; no order is ever settled twice. A backtest asked of API A, which runs no
 * jobs of its own, is computed by a process that does. An on-chain bot started through API A trades
 * every minute across the kill, each close once. Take-profit, stop-loss, trailing-stop and
 * one-cancels-the-other orders placed through API A fire once each while keepers in two processes
 * race for them (and the trader races them with a cancel through API A): one fill, one settlement on
 * chain, the partner refunded once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSpotOrder, TUnsignedTransaction } from '@solterm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, TEST_JWT_SECRET, type TestDatabase } from './helpers/test-app';
import { FLIP_STRATEGY } from './helpers/bot-strategies';
import { createSolanaWallet, type SolanaSigningWallet } from './helpers/wallets';
import { freePort, freePortPair, nodeArgsFor } from './helpers/child-process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Lease expiry (10 s) + supervision (1 s) + a poll (0.5 s) + a keeper pass, with room for a busy CI. */
const FAILOVER_BOUND_MS = 25_000;

interface Child {
  process: ChildProcess;
  output: string[];
}

function start(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, nodeArgsFor(script), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { process: child, output };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function api<T>(base: string, method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { success: boolean; data: T; error?: string };
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('several API and worker processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  const children: Child[] = [];
  let apiA: string;
  let apiB: string;
  let chainUrl: string;
  /** The processes that run jobs (API B and the worker). */
  let leaseHolders: Child[];
  /** The settings of a keeper in this test's own process (same database, chain, keys and seed). */
  let keeperEnv: Record<string, string>;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-multi-'));
    const [chainPort, portA, portB] = await Promise.all([freePortPair(), freePort(), freePort()]);
    const chain = start('packages/localnet/src/main.ts', {
      LOCALNET_PORT: String(chainPort),
      LOCALNET_DATA_DIR: path.join(dataDir, 'localnet'),
    });
    children.push(chain);
    await until(
      'the cluster',
      async () => (chain.output.join('').includes('listening on') ? true : undefined),
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; it printed: ${chain.output.join('') || 'nothing'}`);
    });
    const shared = {
      DATABASE_URL: database.url!,
      SOLANA_RPC_URL: `http://127.0.0.1:${chainPort}`,
      LOCALNET_KEYS_DIR: path.join(dataDir, 'localnet'),
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      LIMIT_KEEPER_INTERVAL_MS: '200',
      AUTH_RATE_LIMIT_MAX: '1000',
      WEB_DIST_DIR: dataDir,
    };
    // API A leaves jobs to others; API B runs them too; the worker runs only jobs.
    const a = start('apps/server/src/server.ts', { ...shared, PORT: String(portA), JOBS: 'off' });
    const b = start('apps/server/src/server.ts', {
      ...shared,
      PORT: String(portB),
      JOBS: 'on',
      LOG_LEVEL: 'debug',
    });
    // Job processes log each lease they take (debug), so the test can kill the keeper's holder.
    const worker = start('apps/server/src/worker.ts', { ...shared, LOG_LEVEL: 'debug' });
    children.push(a, b, worker);
    keeperEnv = { ...shared, JOBS: 'off' };
    leaseHolders = [b, worker];
    apiA = `http://127.0.0.1:${portA}`;
    apiB = `http://127.0.0.1:${portB}`;
    chainUrl = `http://127.0.0.1:${chainPort}`;
    for (const base of [apiA, apiB]) {
      await until(`${base}`, async () => ((await fetch(`${base}/api/health`)).ok ? true : undefined), 90_000);
    }
  }, 180_000);

  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await database?.cleanup();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  async function trader(base: string) {
    const wallet = createSolanaWallet();
    const challenge = await api<{ message: string }>(
      base,
      'GET',
      `/api/auth/wallet-challenge?wallet_address=${wallet.address}&wallet_type=phantom`,
    );
    const { token } = await api<{ token: string }>(base, 'POST', '/api/auth/connect-wallet', undefined, {
      wallet_address: wallet.address,
      wallet_type: 'phantom',
      signature: wallet.sign(challenge.message),
      message: challenge.message,
    });
    await api(base, 'POST', '/api/wallet/fund', token, { amount_sol: 2, amount_usdc: 500 });
    return { base, token, wallet };
  }

  /** A buy limit far above the ask: it crosses at once, so the keeper fills it on its next pass. */
  async function crossingLimitBuy(user: { base: string; token: string; wallet: SolanaSigningWallet }) {
    const built = await api<TUnsignedTransaction>(
      user.base,
      'POST',
      '/api/trading/get-unsigned-transaction',
      user.token,
      {
        symbol: 'SOL/USDC',
        side: 'Buy',
        order_type: 'Limit',
        quantity: 0.1,
        price: 1000,
      },
    );
    await api(user.base, 'POST', '/api/trading/execute-signed-transaction', user.token, {
      signed_transaction: user.wallet.signTransaction(built.unsigned_transaction),
    });
    return built.order_id!;
  }

  const filled = (user: { base: string; token: string }, orderId: string) => async () => {
    const orders = await api<TSpotOrder[]>(user.base, 'GET', '/api/trading/orders', user.token);
    const order = orders.find((row) => row.id === orderId);
    return order?.status === 'Filled' ? order : undefined;
  };

  it('fills limit orders placed through either API, and keeps filling after the keeper’s holder is killed', async () => {
    const [onA, onB] = await Promise.all([trader(apiA), trader(apiB)]);
    const [orderA, orderB] = await Promise.all([crossingLimitBuy(onA), crossingLimitBuy(onB)]);
    await until('the order placed through API A to fill', filled(onA, orderA), 30_000);
    await until('the order placed through API B to fill', filled(onB, orderB), 30_000);

    // A backtest asked of API A (JOBS=off: it computes none itself) is computed by B or the worker.
    const bot = await api<{ bot_id: string }>(apiA, 'POST', '/api/bots', onA.token, {
      name: 'SMA',
      strategy_type: 'sma_crossover',
      config: { amount: 1 },
    });
    const backtest = await api<{ total_trades: number; candles: number }>(
      apiA,
      'POST',
      '/api/bots/backtest',
      onA.token,
      { bot_id: bot.bot_id, start_date: '2025-11-01', end_date: '2025-12-31', initial_balance: 1000 },
    );
    expect(backtest.candles).toBeGreaterThan(1000);
    expect(backtest.total_trades).toBeGreaterThan(0);

    // An on-chain bot started through API A (which runs no jobs) trades at every minute's close
    // wherever the live-bots job runs, through the relay, from the user's bot key.
    const delegation = await api<{ delegation_id: string; unsigned_transaction: string }>(
      apiA,
      'POST',
      '/api/delegation/create',
      onA.token,
      { amount: 1 },
    );
    await api(apiA, 'POST', '/api/delegation/submit', onA.token, {
      delegation_id: delegation.delegation_id,
      signed_transaction: onA.wallet.signTransaction(delegation.unsigned_transaction),
    });
    const flip = await api<{ bot_id: string }>(apiA, 'POST', '/api/bots', onA.token, {
      name: 'Flip',
      strategy_type: 'scalper',
      config: {
        amount: 0.05,
        interval: '1M',
        code: FLIP_STRATEGY,
        stop_loss_percentage: 50,
        take_profit_percentage: 50,
      },
    });
    await api(apiA, 'POST', `/api/bots/production/${flip.bot_id}/start`, onA.token, {});

    // Kill whichever process takes the next keeper lease (its holder re-takes it at once, so one of
    // them keeps it): the job is stuck with a dead holder until the lease expires, then the other
    // takes it. Orders go through API A, which runs no jobs.
    const leases = (child: Child) =>
      child.output
        .join('')
        .split('\n')
        .filter((line) => line.includes('job lease taken') && line.includes('"job":"limit-keeper"')).length;
    const seen = new Map(leaseHolders.map((child) => [child, leases(child)]));
    const holder = await until(
      'a process to take a keeper lease',
      async () => leaseHolders.find((child) => leases(child) > seen.get(child)!),
      30_000,
    );
    holder.process.kill('SIGKILL');
    const killedAt = performance.now();
    const killedAtMs = Date.now();
    const afterKill = await crossingLimitBuy(onA);
    await until('an order placed after the holder died to fill', filled(onA, afterKill), FAILOVER_BOUND_MS);
    const failoverMs = performance.now() - killedAt;
    // Not before the dead holder's lease expired (10 s from when it was taken), and within the bound.
    expect(failoverMs).toBeGreaterThan(5_000);
    expect(failoverMs).toBeLessThan(FAILOVER_BOUND_MS);

    // Settled once each: one fill per order, and the trader received 0.1 SOL per order, never twice.
    // (The bot's swaps are recorded as its owner's market orders too: only the limits are counted.)
    const limits = [orderA, orderB, afterKill];
    const { rows } = (await database.database.db.execute(
      `select order_id, count(*)::int as fills from spot_trades
        where order_id in (${limits.map((id) => `'${id}'`).join(', ')}) group by order_id`,
    )) as unknown as { rows: { order_id: string; fills: number }[] };
    expect(rows.map((row) => row.fills)).toEqual([1, 1, 1]);
    expect(new Set(rows.map((row) => row.order_id))).toEqual(new Set(limits));
    const statuses = (await api<TSpotOrder[]>(apiA, 'GET', '/api/trading/orders', onA.token)).filter(
      (order) => order.order_type === 'Limit',
    );
    expect(statuses.map((order) => [order.status, order.filled_quantity])).toEqual([
      ['Filled', 0.1],
      ['Filled', 0.1],
    ]);

    // The bot trades on across the kill: a candle that closed after it was traded (by the process
    // left), and every close since the start was traded exactly once — one fill per minute, buy and
    // sell alternating, each its own transaction, nothing lost or doubled.
    type Status = { trades: { time: string; side: string; transaction_hash: string | null }[] };
    const killMinute = Math.floor(killedAtMs / 60_000) * 60_000;
    const traded = await until(
      'the bot to trade a candle that closed after the kill',
      async () => {
        const status = await api<Status>(
          apiA,
          'GET',
          `/api/bots/production/${flip.bot_id}/status`,
          onA.token,
        );
        return status.trades.some((trade) => Date.parse(trade.time) >= killMinute) ? status : undefined;
      },
      100_000,
    );
    const trades = [...traded.trades].reverse();
    expect(trades.map((trade) => trade.side)).toEqual(
      trades.map((_, index) => (index % 2 === 0 ? 'Buy' : 'Sell')),
    );
    const minutes = trades.map((trade) => Date.parse(trade.time) / 60_000);
    expect(minutes).toEqual(minutes.map((_, index) => minutes[0]! + index));
    expect(new Set(trades.map((trade) => trade.transaction_hash)).size).toBe(trades.length);
  }, 240_000);

  it('fires take-profit, stop-loss, trailing-stop and one-cancels-the-other orders once each while keepers race', async () => {
    const user = await trader(apiA);
    type Row = Record<string, string | number | null>;
    const query = async <T extends Row>(text: string) =>
      ((await database.database.db.execute(text)) as unknown as { rows: T[] }).rows;
    const rpc = async <T>(method: string, params: unknown[]) => {
      const response = await fetch(chainUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return ((await response.json()) as { result: T }).result;
    };
    const midPrice = async () =>
      (
        await api<{ mid_price: number }>(
          apiA,
          'GET',
          `/api/trading/orderbook/${encodeURIComponent('SOL/USDC')}`,
        )
      ).mid_price;
    /** Sells 0.1 SOL when it triggers (escrowed now), through API A, which runs no keeper. */
    const place = async (order: Record<string, unknown>) => {
      const built = await api<TUnsignedTransaction>(apiA, 'POST', '/api/trading/spot/order', user.token, {
        symbol: 'SOL/USDC',
        side: 'Sell',
        amount: 0.1,
        max_slippage_bps: 300,
        ...order,
      });
      const { order: placed } = await api<{ order: TSpotOrder }>(
        apiA,
        'POST',
        '/api/trading/execute-signed-transaction',
        user.token,
        { signed_transaction: user.wallet.signTransaction(built.unsigned_transaction) },
      );
      expect(placed).toMatchObject({ id: built.order_id, status: 'Pending' });
      return built.order_id!;
    };

    // Far from the market, so none fires before the test moves its trigger across the market.
    const placedAt = await midPrice();
    const profit = { order_type: 'take_profit', trigger_price: placedAt * 1.5 };
    const stop = { order_type: 'stop_loss', trigger_price: placedAt * 0.5 };
    // A keeper in this process too (the lease holder's runs every 200 ms): same database, chain,
    // escrow and maker keys and market seed, its clock the wall clock as theirs.
    const ownApp = createTestApp({
      database,
      dataDir,
      embeddedCluster: 'data-dir',
      env: keeperEnv,
      clock: { now: () => new Date(), advance: () => undefined },
    });
    try {
      const [takeProfit, stopLoss, trailing, ocoProfit, racedProfit] = await Promise.all([
        place(profit),
        place(stop),
        place({ order_type: 'trailing_stop', trail_percent: 20 }),
        place(profit),
        place(profit),
      ]);
      const [ocoStop, racedStop] = await Promise.all([
        place({ ...stop, oco_with: ocoProfit }),
        place({ ...stop, oco_with: racedProfit }),
      ]);
      const all = [takeProfit, stopLoss, trailing, ocoProfit, ocoStop, racedProfit, racedStop];
      const list = (ids: string[]) => ids.map((id) => `'${id}'`).join(', ');

      const usdc = async () => {
        const [order] = await query<{ quote_mint: string }>(
          `select quote_mint from spot_orders where id = '${takeProfit}'`,
        );
        const mint = order!.quote_mint;
        const { value } = await rpc<{
          value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[];
        }>('getTokenAccountsByOwner', [user.wallet.address, { mint }, { encoding: 'jsonParsed' }]);
        return value.reduce(
          (sum, { account }) => sum + BigInt(account.data.parsed.info.tokenAmount.amount),
          0n,
        );
      };
      const usdcBefore = await usdc();

      // The market "moves" across every trigger at once: each take-profit's trigger just under the
      // mid, each stop's just over it, the trailing stop's best price so far 26% above it (its
      // trigger, 20% under that, just over the mid). Both legs of each pair are crossed.
      const mid = await midPrice();
      const under = (mid * 0.99).toFixed(6);
      const over = (mid * 1.01).toFixed(6);
      await query(
        `update spot_orders set
           trigger_price = case
             when id in (${list([takeProfit, ocoProfit, racedProfit])}) then ${under}
             when id = '${trailing}' then ${over}
             else ${over} end,
           trail_reference = case when id = '${trailing}' then ${(mid * 1.01) / 0.8} else trail_reference end
         where id in (${list(all)})`,
      );
      // Two passes of this process's keeper race the other process's, and the trader cancels one
      // leg of the raced pair through API A (its answer: cancelled, or 409 when a fill came first).
      const cancelRaced = fetch(`${apiA}/api/trading/orders/${racedStop}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}` },
      });
      const own = await ownApp;
      const [, , cancelled] = await Promise.all([own.keeper!.tick(), own.keeper!.tick(), cancelRaced]);
      expect([200, 409]).toContain(cancelled.status);

      const settled = await until(
        'every trigger order to be filled or refunded',
        async () => {
          const orders = (await api<TSpotOrder[]>(apiA, 'GET', '/api/trading/orders', user.token)).filter(
            (order) => all.includes(order.id),
          );
          const done = orders.every((order) => order.status === 'Filled' || order.status === 'Cancelled');
          return orders.length === all.length && done ? new Map(orders.map((o) => [o.id, o])) : undefined;
        },
        30_000,
      );
      const status = (id: string) => settled.get(id)!.status;
      for (const id of [takeProfit, stopLoss, trailing]) expect(status(id)).toBe('Filled');
      // Each pair: exactly one leg filled, the other refunded.
      for (const pair of [
        [ocoProfit, ocoStop],
        [racedProfit, racedStop],
      ]) {
        expect(pair.map(status).sort()).toEqual(['Cancelled', 'Filled']);
      }
      const filledIds = all.filter((id) => status(id) === 'Filled');

      // One fill row per filled order, none for a refunded one.
      const fills = await query<{ order_id: string; fills: number }>(
        `select order_id, count(*)::int as fills from spot_trades where order_id in (${list(all)}) group by order_id`,
      );
      expect(new Map(fills.map((row) => [row.order_id, row.fills]))).toEqual(
        new Map(filledIds.map((id) => [id, 1])),
      );

      // One settlement landed per order (its fill or its refund), and it is the order's settlement.
      const tickets = await query<{ order_id: string; kind: string; status: string; signature: string }>(
        `select payload->>'orderId' as order_id, kind, status, signature from server_tickets
        where kind in ('limit_fill', 'limit_refund') and payload->>'orderId' in (${list(all)})`,
      );
      const landed = tickets.filter((ticket) => ticket.status === 'landed');
      expect(landed.map((ticket) => ticket.order_id).sort()).toEqual([...all].sort());
      for (const ticket of landed) {
        expect(ticket.kind).toBe(status(ticket.order_id) === 'Filled' ? 'limit_fill' : 'limit_refund');
        expect(settled.get(ticket.order_id)!.settlement_tx_hash).toBe(ticket.signature);
      }
      // On chain: each landed settlement succeeded there, and no other settlement attempt did.
      const { value: onChain } = await rpc<{ value: ({ err: unknown } | null)[] }>('getSignatureStatuses', [
        tickets.map((ticket) => ticket.signature),
        { searchTransactionHistory: true },
      ]);
      const succeeded = tickets.filter((_, index) => onChain[index] && onChain[index].err === null);
      expect(succeeded.map((ticket) => ticket.signature).sort()).toEqual(
        landed.map((ticket) => ticket.signature).sort(),
      );
      // The USDC the wallet received is the filled orders' recorded proceeds, each paid once.
      const proceeds = await query<{ amount: string }>(
        `select coalesce(sum(fill_trader_amount), 0)::text as amount from spot_orders where id in (${list(filledIds)})`,
      );
      expect((await usdc()) - usdcBefore).toBe(BigInt(proceeds[0]!.amount));
    } finally {
      await (await ownApp).close();
    }
  }, 120_000);
});
