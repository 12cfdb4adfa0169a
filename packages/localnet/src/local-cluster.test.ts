import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getMintDecoder, getTokenDecoder } from '@solana-program/token';
import { getAssignInstruction, getCreateAccountInstruction } from '@solana-program/system';
import { getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token';
import { address, generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { TOKEN_IDENTITIES, USDC_MINT, WRAPPED_SOL_MINT } from '@solterm/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PROCESSING_AGE } from './blockhash-queue';
import { findAssociatedTokenAddress, LAMPORTS_PER_SOL } from './genesis';
import { LEDGER_FILE } from './ledger';
import { MEMO_PROGRAM_ID } from './program-ids';
import { TOKEN_PROGRAM_ID } from './token-layout';
import { createLocalCluster, type LocalCluster, type LocalClusterOptions } from './local-cluster';
import { createJsonRpcHandler } from './rpc/json-rpc-handler';
import { signInstructions, signTransfer, type SignedTransaction } from './test-helpers';

const open: LocalCluster[] = [];
const directories: string[] = [];

async function makeCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const cluster = await createLocalCluster({ slotClock: 'manual', ...options });
  open.push(cluster);
  return cluster;
}

async function makeDataDir(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'localnet-test-'));
  directories.push(directory);
  return directory;
}

async function fundedSigner(cluster: LocalCluster, sol = 10n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await cluster.requestAirdrop(signer.address, sol * LAMPORTS_PER_SOL);
  return signer;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((cluster) => cluster.close()));
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe('genesis', () => {
  it('creates every identity mint at its mainnet address with its decimals and the treasury as authority', async () => {
    const cluster = await makeCluster();
    for (const token of TOKEN_IDENTITIES) {
      const account = cluster.getAccount(token.mint);
      expect(account, token.symbol).not.toBeNull();
      const mint = getMintDecoder().decode(account!.data);
      expect(mint.decimals, token.symbol).toBe(token.decimals);
      if (token.mint !== WRAPPED_SOL_MINT) {
        expect(mint.mintAuthority, token.symbol).toEqual({
          __option: 'Some',
          value: cluster.treasury.address,
        });
      }
    }
  });

  it('gives the market maker SOL and an associated token account of every token, supply matching', async () => {
    const cluster = await makeCluster();
    expect(cluster.getBalance(cluster.marketMaker.address)).toBe(100_000n * LAMPORTS_PER_SOL);
    const usdcAccount = await findAssociatedTokenAddress(cluster.marketMaker.address, USDC_MINT);
    const usdc = getTokenDecoder().decode(cluster.getAccount(usdcAccount)!.data);
    expect(usdc.amount).toBe(50_000_000n * 1_000_000n);
    expect(getMintDecoder().decode(cluster.getAccount(USDC_MINT)!.data).supply).toBe(usdc.amount);
    const wrappedSol = await findAssociatedTokenAddress(cluster.marketMaker.address, WRAPPED_SOL_MINT);
    const wrapped = cluster.getAccount(wrappedSol)!;
    expect(getTokenDecoder().decode(wrapped.data).amount).toBe(50_000n * LAMPORTS_PER_SOL);
    expect(wrapped.lamports).toBe(50_000n * LAMPORTS_PER_SOL + cluster.minimumBalanceForRentExemption(165));
    // Identity-map tokens first; every listed token is checked in genesis.test.ts.
    expect(cluster.mints.slice(0, TOKEN_IDENTITIES.length).map((mint) => mint.symbol)).toEqual(
      TOKEN_IDENTITIES.map((token) => token.symbol),
    );
  });
});

describe('blockhashes and replays', () => {
  it('accepts a blockhash for MAX_PROCESSING_AGE slots and then answers BlockhashNotFound', async () => {
    // Given a funded payer and a blockhash from slot 0
    const cluster = await makeCluster({ tokens: [] });
    const payer = await fundedSigner(cluster);
    const recipient = await generateKeyPairSigner();
    const lifetime = cluster.getLatestBlockhash();
    expect(lifetime.lastValidBlockHeight).toBe(BigInt(cluster.blockHeight + MAX_PROCESSING_AGE));
    const early = await signTransfer(payer, recipient.address, LAMPORTS_PER_SOL, lifetime);
    const late = await signTransfer(payer, recipient.address, 2n * LAMPORTS_PER_SOL, lifetime);

    // When exactly MAX_PROCESSING_AGE slots pass, the blockhash still works
    cluster.advanceSlots(MAX_PROCESSING_AGE);
    expect(cluster.isBlockhashValid(lifetime.blockhash)).toBe(true);
    expect(cluster.sendTransaction(early.bytes).kind).toBe('committed');

    // Then one more slot expires it
    cluster.advanceSlots(1);
    expect(cluster.isBlockhashValid(lifetime.blockhash)).toBe(false);
    expect(cluster.sendTransaction(late.bytes)).toMatchObject({ kind: 'rejected', err: 'BlockhashNotFound' });
    expect(cluster.getBalance(recipient.address)).toBe(LAMPORTS_PER_SOL);
  });

  it('lands an airdrop whose blockhash aged out while it was being signed', async () => {
    const cluster = await makeCluster();
    const recipient = await generateKeyPairSigner();
    // The transfer is signed asynchronously; the slot clock runs on meanwhile, past the blockhash's age
    const airdrop = cluster.requestAirdrop(recipient.address, LAMPORTS_PER_SOL);
    cluster.advanceSlots(MAX_PROCESSING_AGE + 1);

    await expect(airdrop).resolves.toEqual(expect.any(String));
    expect(cluster.getBalance(recipient.address)).toBe(LAMPORTS_PER_SOL);
  });

  it('with the auto clock, lands an airdrop in the slot it was requested in as that slot ends, as a validator packs the faucet’s transaction', async () => {
    // A minute a slot: the slot ends only when the test ends it.
    const cluster = await makeCluster({ slotClock: 'auto', slotDurationMs: 60_000, tokens: [] });
    cluster.advanceSlots(1);
    const recipient = await generateKeyPairSigner();
    const slot = cluster.slot;
    let landed: string | undefined;
    const airdrop = cluster.requestAirdrop(recipient.address, LAMPORTS_PER_SOL).then((signature) => {
      landed = signature;
      return signature;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(landed).toBeUndefined();
    expect(cluster.getBalance(recipient.address)).toBe(0n);
    expect(cluster.transactionCount).toBe(0);

    cluster.advanceSlots(1);
    const signature = await airdrop;
    expect(cluster.getSignatureStatus(signature)).toMatchObject({ slot, err: null });
    expect(cluster.getBalance(recipient.address)).toBe(LAMPORTS_PER_SOL);

    // Stopping the clock lands a waiting airdrop at once.
    const second = cluster.requestAirdrop(recipient.address, LAMPORTS_PER_SOL);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cluster.getBalance(recipient.address)).toBe(LAMPORTS_PER_SOL);
    cluster.stopSlotClock();
    await expect(second).resolves.toEqual(expect.any(String));
    expect(cluster.getBalance(recipient.address)).toBe(2n * LAMPORTS_PER_SOL);
  });

  it('refuses a replay within the validity window without touching balances', async () => {
    const cluster = await makeCluster({ tokens: [] });
    const payer = await fundedSigner(cluster);
    const recipient = await generateKeyPairSigner();
    const transfer = await signTransfer(
      payer,
      recipient.address,
      LAMPORTS_PER_SOL,
      cluster.getLatestBlockhash(),
    );
    expect(cluster.sendTransaction(transfer.bytes).kind).toBe('committed');
    const payerBalance = cluster.getBalance(payer.address);
    cluster.advanceSlots(10);
    expect(cluster.sendTransaction(transfer.bytes)).toMatchObject({
      kind: 'rejected',
      err: 'AlreadyProcessed',
    });
    expect(cluster.sendTransaction(transfer.bytes, { skipPreflight: true }).kind).toBe('rejected');
    expect(cluster.getBalance(payer.address)).toBe(payerBalance);
    expect(cluster.getBalance(recipient.address)).toBe(LAMPORTS_PER_SOL);
  });

  it('charges nothing for a failed preflight but commits a failed transaction with its fee under skipPreflight', async () => {
    const cluster = await makeCluster({ tokens: [] });
    const payer = await fundedSigner(cluster, 1n);
    const recipient = await generateKeyPairSigner();
    const lifetime = cluster.getLatestBlockhash();
    const tooMuch = await signTransfer(payer, recipient.address, 5n * LAMPORTS_PER_SOL, lifetime);

    const preflight = cluster.sendTransaction(tooMuch.bytes);
    expect(preflight).toMatchObject({ kind: 'rejected', err: { InstructionError: [0, { Custom: 1 }] } });
    expect(cluster.getBalance(payer.address)).toBe(LAMPORTS_PER_SOL);
    expect(cluster.getSignatureStatus(tooMuch.signature)).toBeNull();

    const skipped = cluster.sendTransaction(tooMuch.bytes, { skipPreflight: true });
    expect(skipped.kind).toBe('committed');
    expect(cluster.getBalance(payer.address)).toBe(LAMPORTS_PER_SOL - 5000n);
    expect(cluster.getSignatureStatus(tooMuch.signature)?.err).toEqual({
      InstructionError: [0, { Custom: 1 }],
    });
    expect(cluster.getTransactionRecord(tooMuch.signature)?.fee).toBe('5000');
  });
});

describe('signature statuses', () => {
  it('moves from processed to confirmed once durable and to finalized after the finalization depth', async () => {
    const cluster = await makeCluster({ tokens: [], dataDir: await makeDataDir() });
    const payer = await fundedSigner(cluster);
    const transfer = await signTransfer(payer, cluster.marketMaker.address, 1n, cluster.getLatestBlockhash());
    cluster.sendTransaction(transfer.bytes);
    expect(cluster.getSignatureStatus(transfer.signature)?.confirmationStatus).toBe('processed');
    await cluster.flush();
    expect(cluster.getSignatureStatus(transfer.signature)).toMatchObject({
      confirmationStatus: 'confirmed',
      confirmations: 0,
    });
    cluster.advanceSlots(32);
    expect(cluster.getSignatureStatus(transfer.signature)).toMatchObject({
      confirmationStatus: 'finalized',
      confirmations: null,
    });
  });
});

describe('persistence', () => {
  it('reopens with the same balances, signature log and a later slot', async () => {
    // Given a cluster with a transfer in its log
    const dataDir = await makeDataDir();
    const first = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
    const payer = await generateKeyPairSigner();
    await first.requestAirdrop(payer.address, 3n * LAMPORTS_PER_SOL);
    const recipient = await generateKeyPairSigner();
    const lifetime = first.getLatestBlockhash();
    const transfer = await signTransfer(payer, recipient.address, LAMPORTS_PER_SOL, lifetime);
    expect(first.sendTransaction(transfer.bytes).kind).toBe('committed');
    const transferSlot = first.slot;
    first.advanceSlots(7);
    const slotBefore = first.slot;
    const treasury = first.treasury.address;
    const marketMaker = first.marketMaker.address;
    const payerBalance = first.getBalance(payer.address);
    await first.close();

    // When it is reopened from the same directory
    const second = await makeCluster({ dataDir, tokens: [] });

    // Then keys, balances, statuses and the slot carry over, and the old transaction stays a replay
    expect(second.treasury.address).toBe(treasury);
    expect(second.marketMaker.address).toBe(marketMaker);
    expect(second.getBalance(payer.address)).toBe(payerBalance);
    expect(second.getBalance(recipient.address)).toBe(LAMPORTS_PER_SOL);
    expect(second.getSignatureStatus(transfer.signature)).toMatchObject({ slot: transferSlot, err: null });
    const statuses = await createJsonRpcHandler(second).handleJsonRpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'getSignatureStatuses',
      params: [[transfer.signature], { searchTransactionHistory: true }],
    });
    expect(statuses).toMatchObject({
      result: {
        value: [{ slot: transferSlot, err: null, status: { Ok: null }, confirmationStatus: 'finalized' }],
      },
    });
    expect(second.getTransactionRecord(transfer.signature)?.postBalances[1]).toBe(
      LAMPORTS_PER_SOL.toString(),
    );
    expect(second.slot).toBeGreaterThan(slotBefore);
    expect(second.isBlockhashValid(lifetime.blockhash)).toBe(true);
    expect(second.sendTransaction(transfer.bytes)).toMatchObject({
      kind: 'rejected',
      err: 'AlreadyProcessed',
    });
    expect(second.transactionCount).toBe(2);
  });

  it('cuts off a torn last ledger line and keeps appending after it', async () => {
    const dataDir = await makeDataDir();
    const first = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
    const payer = await generateKeyPairSigner();
    await first.requestAirdrop(payer.address, LAMPORTS_PER_SOL);
    await first.close();
    const path = join(dataDir, LEDGER_FILE);
    await writeFile(path, `${await readFile(path, 'utf8')}{"t":"tx","r":{"signa`);

    const second = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
    expect(second.getBalance(payer.address)).toBe(LAMPORTS_PER_SOL);
    await second.requestAirdrop(payer.address, LAMPORTS_PER_SOL);
    await second.close();
    const third = await makeCluster({ dataDir, tokens: [] });
    expect(third.getBalance(payer.address)).toBe(2n * LAMPORTS_PER_SOL);
  });

  it('refuses a second cluster on a data directory that is in use', async () => {
    const dataDir = await makeDataDir();
    const first = await makeCluster({ dataDir, tokens: [] });
    await expect(createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] })).rejects.toThrow(
      /already open/,
    );
    await first.close();
    const second = await makeCluster({ dataDir, tokens: [] });
    expect(second.treasury.address).toBe(first.treasury.address);
  });

  it('persists exactly what LiteSVM holds across transfers, account creation, reassignment and token moves', async () => {
    // Given transfers (lamports only) interleaved with transactions that reshape accounts
    const dataDir = await makeDataDir();
    const first = await createLocalCluster({ dataDir, slotClock: 'manual' });
    const payer = await generateKeyPairSigner();
    await first.requestAirdrop(payer.address, 10n * LAMPORTS_PER_SOL);
    const payerUsdc = address(await findAssociatedTokenAddress(payer.address, USDC_MINT));
    const created = await generateKeyPairSigner();
    const reassigned = await generateKeyPairSigner();
    const lifetime = () => first.getLatestBlockhash();
    const sendAll = async (transactions: Promise<SignedTransaction>[]): Promise<void> => {
      for (const transaction of transactions)
        expect(first.sendTransaction((await transaction).bytes).kind).toBe('committed');
    };
    await sendAll([
      signTransfer(payer, reassigned.address, LAMPORTS_PER_SOL, lifetime()),
      signInstructions(
        payer,
        [
          getCreateAccountInstruction({
            payer,
            newAccount: created,
            lamports: first.minimumBalanceForRentExemption(40),
            space: 40,
            programAddress: address(TOKEN_PROGRAM_ID),
          }),
        ],
        lifetime(),
      ),
      signTransfer(payer, created.address, 7n, lifetime()),
      signInstructions(
        reassigned,
        [getAssignInstruction({ account: reassigned, programAddress: address(MEMO_PROGRAM_ID) })],
        lifetime(),
      ),
      signTransfer(payer, reassigned.address, 9n, lifetime()),
      signInstructions(
        payer,
        [
          getCreateAssociatedTokenIdempotentInstruction({
            payer,
            ata: payerUsdc,
            owner: payer.address,
            mint: address(USDC_MINT),
          }),
        ],
        lifetime(),
      ),
      signTransfer(payer, payerUsdc, 11n, lifetime()),
    ]);
    const watched = [
      payer.address,
      created.address,
      reassigned.address,
      await findAssociatedTokenAddress(payer.address, USDC_MINT),
    ];
    const live = watched.map((watchedAddress) => first.getAccount(watchedAddress));
    expect(live[2]?.owner).toBe(MEMO_PROGRAM_ID);
    await first.close();

    // When the cluster is rebuilt from genesis and the ledger
    const second = await makeCluster({ dataDir });

    // Then every account is byte for byte what LiteSVM held
    expect(watched.map((watchedAddress) => second.getAccount(watchedAddress))).toEqual(live);
  });

  it('persists accounts closed by a transaction as deleted', async () => {
    const dataDir = await makeDataDir();
    const first = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
    const payer = await generateKeyPairSigner();
    await first.requestAirdrop(payer.address, LAMPORTS_PER_SOL);
    // Sending everything but the fee empties the account, which the runtime then deletes.
    const drain = await signTransfer(
      payer,
      first.treasury.address,
      LAMPORTS_PER_SOL - 5000n,
      first.getLatestBlockhash(),
    );
    expect(first.sendTransaction(drain.bytes).kind).toBe('committed');
    expect(first.getAccount(payer.address)).toBeNull();
    await first.close();
    const second = await makeCluster({ dataDir, tokens: [] });
    expect(second.getAccount(payer.address)).toBeNull();
  });
});
