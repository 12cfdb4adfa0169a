import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { DEFAULT_BOT_CONFIG, USDC_MINT, WRAPPED_SOL_MINT, type TDelegation } from '@solterm/contracts';
import type { Db } from '../../src/db/database';
import { botFills, botRuns, serverTickets, transactionTickets } from '../../src/db/schema';
import { FLIP_STRATEGY } from './bot-strategies';
import type { ChainReading } from './chain-accounting';
import { bearer, call, type TestApp } from './test-app';
import type { SolanaSigningWallet } from './wallets';

/**
 * The owner approves their bot key for 1 SOL and starts an on-chain bot that trades 0.02 SOL at
 * every minute's close (buy when flat, sell when holding); answers its run's id.
 */
export async function startOnChainFlip(
  app: TestApp,
  db: Db,
  token: string,
  wallet: SolanaSigningWallet,
): Promise<string> {
  const post = <T>(url: string, payload: object) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(token) });
  const delegation = await post<TDelegation>('/api/delegation/create', { amount: 1 });
  const { delegation_id, unsigned_transaction } = delegation.body.data;
  const submitted = await post('/api/delegation/submit', {
    delegation_id,
    signed_transaction: wallet.signTransaction(unsigned_transaction!),
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  const created = await post<{ bot_id: string }>('/api/bots', {
    name: 'Flip',
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
  const botId = created.body.data.bot_id;
  const started = await post(`/api/bots/production/${botId}/start`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const [row] = await db.select().from(botRuns).where(eq(botRuns.botId, botId));
  return row!.id;
}

/**
 * The chain against the records, after a run settled: lamports + fees and every supply conserved
 * (USDC moved by the faucet's landed mints only); every transaction a bot key paid for is one of
 * the run's settled tickets and each of those is on chain; a bot's USDC moved by exactly its landed
 * swaps' amounts, its owner's approval by exactly its landed draws; each fill traded by one swap.
 */
export async function checkChainAgainstRecords({
  db,
  owners,
  before,
  after,
  recordedBefore,
  minted,
}: {
  db: Db;
  /** Each user: their wallet, their bot key and its run. */
  owners: { userId: string; wallet: { address: string }; bot: string; runId: string }[];
  before: ChainReading;
  after: ChainReading;
  /** Ids of the tickets recorded before the run. */
  recordedBefore: Set<string>;
  /** USDC the faucet's landed tickets minted during the run. */
  minted: bigint;
}): Promise<void> {
  expect({ unaccounted: before.unaccounted + after.unaccounted }).toEqual({ unaccounted: 0 });
  expect(after.lamports + after.fees).toBe(before.lamports + before.fees);
  for (const [mint, supply] of after.supply) {
    expect({ mint, supply }).toEqual({
      mint,
      supply: (before.supply.get(mint) ?? 0n) + (mint === USDC_MINT ? minted : 0n),
    });
  }
  const walletTickets = (await db.select().from(transactionTickets)).filter(
    (row) => !recordedBefore.has(row.id),
  );
  const serverRows = (
    await db.select().from(serverTickets).where(eq(serverTickets.kind, 'bot_transfer'))
  ).filter((row) => !recordedBefore.has(row.id));
  for (const [index, user] of owners.entries()) {
    const settled = (row: { status: string }) => row.status === 'landed' || row.status === 'failed';
    const swaps = walletTickets.filter((row) => row.walletAddress === user.bot);
    const transfers = serverRows.filter((row) => row.userId === user.userId);
    const recorded = [...swaps.filter(settled), ...transfers.filter(settled)].map((row) => row.signature);
    expect({ bot: index, paid: [...(after.newByPayer.get(user.bot) ?? [])].sort() }).toEqual({
      bot: index,
      paid: recorded.sort(),
    });
    let usdcMoved = 0n;
    for (const row of swaps.filter((ticket) => ticket.status === 'landed')) {
      const payload = row.payload as { side: string; quoteAmount: string; quoteMint: string };
      expect(payload.quoteMint).toBe(USDC_MINT);
      usdcMoved += payload.side === 'Sell' ? BigInt(payload.quoteAmount) : -BigInt(payload.quoteAmount);
    }
    const held = (reading: ChainReading) => reading.tokens.get(`${user.bot}:${USDC_MINT}`) ?? 0n;
    expect({ bot: index, usdc: held(after) - held(before) }).toEqual({ bot: index, usdc: usdcMoved });
    let drawn = 0n;
    for (const row of transfers.filter((ticket) => ticket.status === 'landed')) {
      const payload = row.payload as { purpose: string; amount: string };
      if (payload.purpose === 'draw') drawn += BigInt(payload.amount);
    }
    const allowance = (reading: ChainReading) =>
      reading.delegated.get(`${user.wallet.address}:${WRAPPED_SOL_MINT}`) ?? 0n;
    expect({ owner: index, drawn: allowance(before) - allowance(after) }).toEqual({ owner: index, drawn });
    // Each fill of the run was traded by exactly one landed swap; the bot's other swaps are the
    // sells that fund its buys.
    const fills = await db.select().from(botFills).where(eq(botFills.runId, user.runId));
    const fillSignatures = fills.map((fill) => fill.txSignature!);
    expect(new Set(fillSignatures).size).toBe(fills.length);
    const landedSwaps = (await db.select().from(transactionTickets))
      .filter((row) => row.walletAddress === user.bot && row.status === 'landed')
      .map((row) => ({ signature: row.signature!, side: (row.payload as { side: string }).side }));
    const landed = new Set(landedSwaps.map((swap) => swap.signature));
    for (const signature of fillSignatures) expect(landed.has(signature), signature).toBe(true);
    const others = landedSwaps.filter((swap) => !fillSignatures.includes(swap.signature));
    expect(others.filter((swap) => swap.side !== 'Sell')).toEqual([]);
    // At most one funding sell per buy: a sell fill traded twice would show as one more.
    const buys = fills.filter((fill) => fill.side === 'Buy').length;
    expect({ bot: index, fundingSells: Math.min(others.length, buys) }).toEqual({
      bot: index,
      fundingSells: others.length,
    });
  }
}
