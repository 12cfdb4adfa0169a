/**
 * Server tickets across real process deaths, on one PostgreSQL and one standalone cluster: futures
 * withdrawals sent by child processes that are killed (SIGKILL, no goodbye) between "recorded" and
 * "sent" and between "sent" and "landed". Then two fresh processes run the relay's reconcile at
 * the same moment over the same tickets: the withdrawal the chain already has lands once, the
 * recorded one still valid is sent and lands once, the recorded one whose blockhash expired unseen
 * is credited back once — nothing paid twice, nothing refunded twice, nothing left pending.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USDC_MINT } from '@solterm/contracts';
import { perpTransfers, serverTickets } from '../src/db/schema';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  TEST_JWT_SECRET,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';
import { freePortPair, nodeArgsFor } from './helpers/child-process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHILD = 'apps/server/test/helpers/relay-child.ts';
const USDC = 1_000_000n;

interface Child {
  process: ChildProcess;
  output: string[];
  /** The first output line starting with `prefix` (waits for it). */
  line(prefix: string, timeoutMs?: number): Promise<string>;
  send(line: string): void;
}

function start(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, nodeArgsFor(script), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return {
    process: child,
    output,
    async line(prefix, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = output
          .join('')
          .split('\n')
          .find((text) => text.startsWith(prefix));
        if (found) return found;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no '${prefix}' from ${script}:\n${output.join('').slice(-3000)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    send(line) {
      child.stdin!.write(`${line}\n`);
    },
  };
}

/** Kills a child with SIGKILL and waits until it is gone. */
async function kill(child: Child): Promise<void> {
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGKILL');
  await exited;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('server tickets across killed processes (PostgreSQL)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let app: TestApp;
  let env: Record<string, string>;
  const children: Child[] = [];
  let alice: { token: string; wallet: SolanaSigningWallet };

  const spawnChild = () => {
    const child = start(CHILD, env);
    children.push(child);
    return child;
  };
  const account = async () =>
    (
      await call<{ collateral: string }>(app, {
        method: 'GET',
        url: '/api/futures/account',
        headers: bearer(alice.token),
      })
    ).body.data;
  const walletUsdc = async () =>
    (await app.services.chain.getTokenBalances(alice.wallet.address)).get(USDC_MINT)?.amount ?? 0n;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-relay-kill-'));
    const chainPort = await freePortPair();
    // Fast slots: a blockhash expires ~15 s after it was taken, so the test can wait for it.
    const chain = start('packages/localnet/src/main.ts', {
      LOCALNET_PORT: String(chainPort),
      LOCALNET_DATA_DIR: path.join(dataDir, 'localnet'),
      LOCALNET_SLOT_MS: '100',
    });
    children.push(chain);
    await chain.line('localnet: listening on', 60_000);
    env = {
      DATABASE_URL: database.url!,
      SOLANA_RPC_URL: `http://127.0.0.1:${chainPort}`,
      LOCALNET_KEYS_DIR: path.join(dataDir, 'localnet'),
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      JOBS: 'off',
      MARKET_SEED: 'relay-kill-restart',
      MARKET_TICK_MS: '3600000',
      WEB_DIST_DIR: dataDir,
    };
    // This process sets Alice up (a funded wallet, 100 USDC of futures collateral).
    app = await createTestApp({
      database,
      embeddedCluster: 'data-dir',
      dataDir,
      clock: createClock(),
      env: { ...env, LOG_LEVEL: 'silent' },
    });
    alice = await fundedWalletUser(app, { amount_sol: 2, amount_usdc: 200 });
    await app.perpKeeper!.tick(true);
    const built = await call<{ unsigned_transaction: string }>(app, {
      method: 'POST',
      url: '/api/futures/account/initialize',
      payload: { amount: 100 },
      headers: bearer(alice.token),
    });
    const executed = await call(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      payload: { signed_transaction: alice.wallet.signTransaction(built.body.data.unsigned_transaction) },
      headers: bearer(alice.token),
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
  }, 180_000);

  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await app?.close();
    await database?.cleanup();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('resumes every ticket of a killed process once: landed → paid once, expired unseen → credited back once', async () => {
    // Five processes boot together: three senders that will be killed, two that reconcile after.
    const [expiring, recorded, sent, first, second] = [1, 2, 3, 4, 5].map(() => spawnChild()) as [
      Child,
      Child,
      Child,
      Child,
      Child,
    ];
    await Promise.all([expiring, recorded, sent, first, second].map((child) => child.line('ready')));
    const walletBefore = await walletUsdc();
    expect((await account()).collateral).toBe('100.000000');

    // Killed between "recorded" and "sent", then left until its blockhash is past: it never reached
    // the chain and never can.
    expiring.send(`withdraw recorded ${alice.token} 5`);
    const expiredSignature = (await expiring.line('at recorded')).split(' ')[2]!;
    await kill(expiring);
    const [row] = await database.database.db
      .select()
      .from(serverTickets)
      .where(inArray(serverTickets.signature, [expiredSignature]));
    expect(row!.status).toBe('open');
    const deadline = BigInt(row!.lastValidBlockHeight);
    await expect
      .poll(async () => (await app.services.chain.getBlockHeight()) > deadline, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(true);

    // Killed between "recorded" and "sent" (still valid), and between "sent" and "landed".
    recorded.send(`withdraw recorded ${alice.token} 10`);
    sent.send(`withdraw sent ${alice.token} 7`);
    const recordedSignature = (await recorded.line('at recorded')).split(' ')[2]!;
    const sentSignature = (await sent.line('at sent')).split(' ')[2]!;
    await Promise.all([kill(recorded), kill(sent)]);
    const signatures = [expiredSignature, recordedSignature, sentSignature];
    // The debits are recorded with their tickets: 100 − 5 − 10 − 7, whatever the chain does next.
    expect((await account()).collateral).toBe('78.000000');

    // Two fresh processes run the relay's reconcile at once over the same three tickets.
    first.send('reconcile');
    second.send('reconcile');
    const results = await Promise.all(
      [first, second].map(
        async (child) =>
          JSON.parse((await child.line('reconciled')).slice('reconciled '.length)) as {
            settled: number;
          },
      ),
    );
    // Between them they answered all three (each reports a ticket's stored verdict, whoever settled
    // it); that each handler ran once is what the money below shows.
    expect(results[0]!.settled + results[1]!.settled).toBeGreaterThanOrEqual(3);

    const tickets = await database.database.db
      .select()
      .from(serverTickets)
      .where(inArray(serverTickets.signature, signatures));
    const statusOf = (signature: string) => tickets.find((ticket) => ticket.signature === signature)!.status;
    expect(signatures.map(statusOf)).toEqual(['expired', 'landed', 'landed']);
    // Paid once each: the wallet received 10 + 7 USDC, and the vault sent nothing else.
    expect(await walletUsdc()).toBe(walletBefore + 17n * USDC);
    // On chain: the two that landed, and never the expired one.
    const onChain = await app.services.chain.getSignatureStatuses(signatures);
    expect(onChain.map((status) => (status ? status.err : 'never'))).toEqual(['never', null, null]);
    // Credited back once: 78 + 5.
    expect((await account()).collateral).toBe('83.000000');
    const transfers = await database.database.db.select().from(perpTransfers);
    const byAmount = (amount: bigint) => transfers.find((row) => BigInt(row.amount) === amount)!.status;
    expect([5n, 10n, 7n].map((units) => byAmount(units * USDC))).toEqual(['refunded', 'landed', 'landed']);
  }, 300_000);
});
