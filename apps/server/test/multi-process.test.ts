/**
 * Several processes on one PostgreSQL and one chain, as real child processes: a standalone cluster
 * (`npm run localnet`), two API processes (`npm start`'s server) and one `npm run worker`. Limit
 * orders placed through either API are filled by whichever process holds the keeper job; killing
 * the holder (SIGKILL, no goodbye: the worker or API B, whichever has it) moves the job to the other
 * within the lease expiry; no order is ever settled twice. A backtest asked of API A, which runs no
 * jobs of its own, is computed by a process that does. An on-chain bot started through API A trades
 * every minute across the kill, each close once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSpotOrder, TUnsignedTransaction } from '@solterm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_JWT_SECRET, type TestDatabase } from './helpers/test-app';
import { FLIP_STRATEGY } from './helpers/bot-strategies';
import { createSolanaWallet, type SolanaSigningWallet } from './helpers/wallets';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Lease expiry (10 s) + supervision (1 s) + a poll (0.5 s) + a keeper pass, with room for a busy CI. */
const FAILOVER_BOUND_MS = 25_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

interface Child {
  process: ChildProcess;
  output: string[];
}

function start(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
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
  /** The processes that run jobs (API B and the worker). */
  let leaseHolders: Child[];

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-multi-'));
    const [chainPort, portA, portB] = await Promise.all([freePort(), freePort(), freePort()]);
    const chain = start('packages/localnet/src/main.ts', {
      LOCALNET_PORT: String(chainPort),
      LOCALNET_DATA_DIR: path.join(dataDir, 'localnet'),
    });
    children.push(chain);
    await until(
      'the cluster',
      async () => (chain.output.join('').includes('listening on') ? true : undefined),
      60_000,
    );
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
    leaseHolders = [b, worker];
    apiA = `http://127.0.0.1:${portA}`;
    apiB = `http://127.0.0.1:${portB}`;
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
});
