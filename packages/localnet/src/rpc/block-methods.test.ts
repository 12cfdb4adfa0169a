/**
 * Blocks, prioritization fees, durable nonces and lookup-table slots on a manual clock: what
 * getBlock & co. answer at each commitment, their refusals, and what survives a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import {
  NONCE_ACCOUNT_LENGTH,
  SystemProgram,
  AddressLookupTableProgram,
  Keypair,
  Transaction,
} from '@solana/web3.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBase58, encodeBase58 } from '../base58';
import { durableNonceFromBlockhash } from '../durable-nonce';
import { LAMPORTS_PER_SOL } from '../genesis';
import { createLocalCluster, type LocalCluster } from '../local-cluster';
import { signInstructions } from '../test-helpers';
import { createJsonRpcHandler, type JsonRpcHandler } from './json-rpc-handler';

let dataDir: string;
let cluster: LocalCluster;
let handler: JsonRpcHandler;
/** Answers of many shapes, read freely and checked by the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

async function call(method: string, params: unknown[] = []): Promise<{ result?: Loose; error?: Loose }> {
  return JSON.parse(
    await handler.handleJsonRpcText(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })),
  ) as { result?: Loose; error?: Loose };
}

async function funded(sol: bigint): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await cluster.requestAirdrop(signer.address, sol * LAMPORTS_PER_SOL);
  return signer;
}

async function transfer(payer: KeyPairSigner, unitPrice?: bigint): Promise<string> {
  const recipient = await generateKeyPairSigner();
  const instructions = [
    ...(unitPrice === undefined ? [] : [getSetComputeUnitPriceInstruction({ microLamports: unitPrice })]),
    getTransferSolInstruction({ source: payer, destination: recipient.address, amount: 1_000_000n }),
  ];
  const signed = await signInstructions(payer, instructions, cluster.getLatestBlockhash());
  const outcome = cluster.sendTransaction(signed.bytes);
  expect(outcome.kind).toBe('committed');
  return outcome.signature;
}

/** Signs a web3.js legacy transaction and sends it to the cluster. */
function sendLegacy(transaction: Transaction, signers: Keypair[], blockhash: string) {
  transaction.recentBlockhash = blockhash;
  transaction.feePayer = signers[0]!.publicKey;
  transaction.sign(...signers);
  return cluster.sendTransaction(new Uint8Array(transaction.serialize()));
}

async function web3Payer(): Promise<Keypair> {
  const keypair = Keypair.generate();
  await cluster.requestAirdrop(keypair.publicKey.toBase58(), 10n * LAMPORTS_PER_SOL);
  return keypair;
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'localnet-blocks-'));
  cluster = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
  handler = createJsonRpcHandler(cluster);
});

afterEach(async () => {
  await cluster.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('getBlock', () => {
  it('holds the slot’s transactions in order, chained to its parent, in every encoding and detail level', async () => {
    const payer = await funded(5n);
    cluster.advanceSlots(1);
    const slot = cluster.slot;
    const first = await transfer(payer);
    const second = await transfer(payer);
    await cluster.flush();
    // Its transactions read as confirmed, so does the block (as on a validator), though the slot
    // is still being produced; a slot without one is not available yet.
    const early = await call('getBlock', [
      slot,
      { commitment: 'confirmed', transactionDetails: 'signatures' },
    ]);
    expect(early.result.signatures).toEqual([first, second]);
    expect((await call('getSlot', [{ commitment: 'confirmed' }])).result).toBe(slot);
    cluster.advanceSlots(1);
    expect((await call('getBlock', [slot + 1, { commitment: 'confirmed' }])).error.code).toBe(-32004);

    const block = (
      await call('getBlock', [slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }])
    ).result;
    expect(block.transactions.map((entry: Loose) => entry.transaction.signatures[0])).toEqual([
      first,
      second,
    ]);
    expect(block).toMatchObject({ blockHeight: slot, parentSlot: slot - 1, rewards: [] });
    const parent = (
      await call('getBlock', [slot - 1, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }])
    ).result;
    expect(block.previousBlockhash).toBe(parent.blockhash);
    expect(parent.transactions.map((entry: Loose) => entry.transaction.signatures[0])).toHaveLength(1); // the airdrop
    expect(block.blockTime).toBe(cluster.blockTimeOf(slot));
    expect(block.transactions[0].version).toBe(0);
    expect(block.transactions[0].meta.fee).toBe(5000);

    const signatures = (
      await call('getBlock', [
        slot,
        { commitment: 'confirmed', transactionDetails: 'signatures', rewards: false },
      ])
    ).result;
    expect(signatures).toEqual({
      blockHeight: slot,
      blockTime: block.blockTime,
      blockhash: block.blockhash,
      parentSlot: slot - 1,
      previousBlockhash: block.previousBlockhash,
      signatures: [first, second],
    });
    const none = (await call('getBlock', [slot, { commitment: 'confirmed', transactionDetails: 'none' }]))
      .result;
    expect(none.transactions).toBeUndefined();
    expect(none.signatures).toBeUndefined();
    const accounts = (
      await call('getBlock', [
        slot,
        { commitment: 'confirmed', transactionDetails: 'accounts', maxSupportedTransactionVersion: 0 },
      ])
    ).result;
    expect(accounts.transactions[0].transaction.accountKeys[0]).toEqual({
      pubkey: payer.address,
      signer: true,
      source: 'transaction',
      writable: true,
    });
    expect(accounts.transactions[0].meta.logMessages).toBeUndefined();
    const base64 = (
      await call('getBlock', [
        slot,
        { commitment: 'confirmed', encoding: 'base64', maxSupportedTransactionVersion: 0 },
      ])
    ).result;
    expect(base64.transactions[0].transaction[1]).toBe('base64');
    const parsed = (
      await call('getBlock', [
        slot,
        { commitment: 'confirmed', encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
      ])
    ).result;
    expect(parsed.transactions[1].transaction.message.instructions[0]).toMatchObject({
      program: 'system',
      parsed: { type: 'transfer', info: { source: payer.address, lamports: 1_000_000 } },
    });
  });

  it('refuses as a validator does: processed, unfinalized, future, legacy clients, bad details', async () => {
    const payer = await funded(5n);
    cluster.advanceSlots(2);
    await transfer(payer);
    await cluster.flush();
    const slot = cluster.slot;
    cluster.advanceSlots(1);
    expect((await call('getBlock', [slot, { commitment: 'processed' }])).error).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
    // Default commitment is finalized: 32 slots behind.
    expect((await call('getBlock', [slot])).error).toEqual({
      code: -32004,
      message: `Block not available for slot ${slot}`,
    });
    cluster.advanceSlots(32);
    expect((await call('getBlock', [slot, { maxSupportedTransactionVersion: 0 }])).result.blockHeight).toBe(
      slot,
    );
    expect((await call('getBlock', [slot + 1000, { commitment: 'confirmed' }])).error.code).toBe(-32004);
    expect((await call('getBlock', [slot])).error).toMatchObject({ code: -32015 });
    expect((await call('getBlock', [slot, { transactionDetails: 'most' }])).error.code).toBe(-32602);
    expect((await call('getBlock', [slot, { encoding: 'xml' }])).error.code).toBe(-32602);
  });

  it('a restarted cluster keeps its blocks with transactions; the rest of the old run reads as skipped', async () => {
    const payer = await funded(5n);
    cluster.advanceSlots(3);
    const busySlot = cluster.slot;
    const signature = await transfer(payer);
    cluster.advanceSlots(2);
    const emptySlot = cluster.slot;
    await cluster.close();
    cluster = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
    handler = createJsonRpcHandler(cluster);
    cluster.advanceSlots(3);
    const restartSlot = cluster.firstAvailableBlock;
    // The airdrop's block, in slot 1 (the genesis block holds no transaction, and an empty block
    // of an earlier run is not kept).
    expect(restartSlot).toBe(1);
    const busy = (
      await call('getBlock', [busySlot, { commitment: 'confirmed', transactionDetails: 'signatures' }])
    ).result;
    expect(busy.signatures).toEqual([signature]);
    expect((await call('getBlock', [emptySlot, { commitment: 'confirmed' }])).error).toEqual({
      code: -32007,
      message: `Slot ${emptySlot} was skipped, or missing due to ledger jump to recent snapshot`,
    });
    const blocks = (await call('getBlocks', [0, cluster.slot, { commitment: 'confirmed' }]))
      .result as number[];
    expect(blocks.slice(0, 2)).toEqual([1, busySlot]);
    expect(blocks).not.toContain(emptySlot);
    // Up to the confirmed slot, the one before the current.
    expect(blocks.slice(-3)).toEqual([cluster.slot - 3, cluster.slot - 2, cluster.slot - 1]);
    expect(cluster.countBlocks(0, cluster.slot - 1)).toBe(blocks.length);
    expect(cluster.countBlocks(busySlot, emptySlot)).toBe(1);
    expect(
      (await call('getBlockProduction', [{ commitment: 'confirmed', range: { firstSlot: 0 } }])).result.value,
    ).toMatchObject({ byIdentity: { [cluster.treasury.address]: [cluster.slot, blocks.length] } });
    // The first block of the new run has the last block before the gap as its parent.
    const firstOfRun = blocks[2]!;
    expect((await call('getBlock', [firstOfRun, { commitment: 'confirmed' }])).result.parentSlot).toBe(
      busySlot,
    );
  });
});

describe('public callers', () => {
  it('a block or a block list too large for an answer is refused before it is encoded', async () => {
    const tight = createJsonRpcHandler(cluster, { limits: { maxResponseBytes: 8192 } });
    const publicCall = async (method: string, params: unknown[]) =>
      JSON.parse(
        await tight.handleJsonRpcText(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), {
          kind: 'public',
          clientId: 'client',
        }),
      ) as { result?: Loose; error?: Loose };
    const payer = await funded(5n);
    cluster.advanceSlots(1);
    for (let index = 0; index < 40; index += 1) await transfer(payer);
    await cluster.flush();
    const slot = cluster.slot;
    cluster.advanceSlots(1);
    const config = { commitment: 'confirmed', maxSupportedTransactionVersion: 0 };
    expect((await publicCall('getBlock', [slot, config])).error).toMatchObject({
      code: -32012,
      message: expect.stringMatching(/^response too large/),
    });
    expect(
      (await publicCall('getBlock', [slot, { ...config, transactionDetails: 'signatures' }])).result
        .signatures,
    ).toHaveLength(40);
    cluster.advanceSlots(3000);
    expect((await publicCall('getBlocks', [0, cluster.slot, { commitment: 'confirmed' }])).error.code).toBe(
      -32012,
    );
    expect(
      (await publicCall('getBlocks', [cluster.slot - 10, cluster.slot, { commitment: 'confirmed' }])).result,
    ).toHaveLength(10); // up to the confirmed slot
  });
});

describe('getBlocks, getBlocksWithLimit, getBlockTime, getBlockCommitment, getBlockProduction', () => {
  it('list and describe blocks up to the commitment’s slot', async () => {
    cluster.advanceSlots(40);
    const slot = cluster.slot;
    const finalized = slot - 32;
    expect((await call('getBlocks', [finalized - 2])).result).toEqual([
      finalized - 2,
      finalized - 1,
      finalized,
    ]);
    expect((await call('getBlocks', [slot - 2, slot + 10, { commitment: 'confirmed' }])).result).toEqual([
      slot - 2,
      slot - 1,
    ]);
    expect((await call('getBlocks', [5, 2])).result).toEqual([]);
    // The end comes down to the commitment's slot before the range is checked, as on Agave.
    expect((await call('getBlocks', [0, 600_000])).result).toHaveLength(finalized + 1);
    expect((await call('getBlocksWithLimit', [3, 4, { commitment: 'confirmed' }])).result).toEqual([
      3, 4, 5, 6,
    ]);
    expect((await call('getBlocksWithLimit', [0, 500_001])).error.message).toBe(
      'Limit too large; max 500000',
    );
    expect((await call('getBlockTime', [slot])).result).toBe(cluster.blockTime);
    expect((await call('getBlockTime', [slot + 5])).error.code).toBe(-32004);
    const tracked = (await call('getBlockCommitment', [slot])).result;
    expect(tracked).toEqual({ commitment: new Array(32).fill(0), totalStake: 0 });
    expect((await call('getBlockCommitment', [finalized - 1])).result).toEqual({
      commitment: null,
      totalStake: 0,
    });
    const production = (await call('getBlockProduction', [{ commitment: 'confirmed' }])).result;
    expect(production.value).toEqual({
      byIdentity: { [cluster.treasury.address]: [slot, slot] },
      range: { firstSlot: 0, lastSlot: slot - 1 },
    });
    expect(production.context.slot).toBe(slot - 1);
    expect((await call('getBlockProduction', [{ range: { firstSlot: 5, lastSlot: 2 } }])).error.code).toBe(
      -32602,
    );
    expect((await call('getBlockProduction', [{ range: { firstSlot: 0, lastSlot: 1e9 } }])).error).toEqual({
      code: -32602,
      message: `lastSlot, 1000000000, is too large; max ${finalized}`,
    });
    expect((await call('getFirstAvailableBlock')).result).toBe(0);
  });
});

describe('getRecentPrioritizationFees', () => {
  it('reports the lowest compute-unit price of each recent slot, raised by the accounts asked about', async () => {
    const cheap = await funded(5n);
    const eager = await funded(5n);
    cluster.advanceSlots(1);
    const slot = cluster.slot;
    await transfer(cheap, 10n);
    await transfer(eager, 5000n);
    cluster.advanceSlots(1);
    await transfer(eager, 700n);
    const all = (await call('getRecentPrioritizationFees')).result as {
      slot: number;
      prioritizationFee: number;
    }[];
    expect(all.find((entry) => entry.slot === slot)?.prioritizationFee).toBe(10);
    expect(all.find((entry) => entry.slot === slot + 1)?.prioritizationFee).toBe(700);
    expect(all.find((entry) => entry.slot === slot - 1)?.prioritizationFee).toBe(0); // airdrops, no price
    const byAccount = (await call('getRecentPrioritizationFees', [[eager.address]])).result as {
      slot: number;
      prioritizationFee: number;
    }[];
    expect(byAccount.find((entry) => entry.slot === slot)?.prioritizationFee).toBe(5000);
    cluster.advanceSlots(200);
    const later = (await call('getRecentPrioritizationFees')).result as unknown[];
    expect(later).toHaveLength(150);
    expect((await call('getRecentPrioritizationFees', [new Array(129).fill(eager.address)])).error.code).toBe(
      -32602,
    );
  });
});

describe('durable nonces and lookup tables', () => {
  it('a nonce transaction lands long after, only with the nonce authority’s signature, and a used value is refused', async () => {
    const payer = await web3Payer();
    const stranger = await web3Payer();
    const nonceAccount = Keypair.generate();
    const rent = Number(cluster.minimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH));
    const created = sendLegacy(
      new Transaction().add(
        ...SystemProgram.createNonceAccount({
          fromPubkey: payer.publicKey,
          noncePubkey: nonceAccount.publicKey,
          authorizedPubkey: payer.publicKey,
          lamports: rent,
        }).instructions,
      ),
      [payer, nonceAccount],
      cluster.getLatestBlockhash().blockhash,
    );
    expect(created.kind).toBe('committed');
    const nonceValue = (): string => {
      const data = cluster.getAccount(nonceAccount.publicKey.toBase58())!.data;
      return encodeBase58(data.subarray(40, 72));
    };
    const advanceAndPay = (authority: Keypair, lamports: number, nonce: string) =>
      sendLegacy(
        new Transaction().add(
          SystemProgram.nonceAdvance({
            noncePubkey: nonceAccount.publicKey,
            authorizedPubkey: authority.publicKey,
          }),
          SystemProgram.transfer({
            fromPubkey: authority.publicKey,
            toPubkey: Keypair.generate().publicKey,
            lamports,
          }),
        ),
        [authority],
        nonce,
      );
    cluster.advanceSlots(200); // far past Loose recent blockhash
    const nonce = nonceValue();
    expect(advanceAndPay(stranger, 1_000_000, nonce)).toMatchObject({
      kind: 'rejected',
      err: 'BlockhashNotFound',
    });
    expect(advanceAndPay(payer, 1_000_000, nonce).kind).toBe('committed');
    // The next value comes from the bank's blockhash, as on a validator.
    const bank = decodeBase58(cluster.getLatestBlockhash().blockhash)!;
    expect(nonceValue()).toBe(encodeBase58(durableNonceFromBlockhash(bank)));
    expect(advanceAndPay(payer, 2_000_000, nonce)).toMatchObject({
      kind: 'rejected',
      err: 'BlockhashNotFound',
    });
    const wrongAccount = Keypair.generate();
    expect(
      sendLegacy(
        new Transaction().add(
          SystemProgram.nonceAdvance({
            noncePubkey: wrongAccount.publicKey,
            authorizedPubkey: payer.publicKey,
          }),
        ),
        [payer],
        nonceValue(),
      ),
    ).toMatchObject({ kind: 'rejected', err: 'BlockhashNotFound' });
    // Its value was set this slot, so it would advance to itself: the cluster ends the slot first.
    const before = cluster.slot;
    expect(advanceAndPay(payer, 2_000_000, nonceValue()).kind).toBe('committed');
    expect(cluster.slot).toBe(before + 1);
    cluster.advanceSlots(1);
    // A nonce transaction that fails but is committed (skipPreflight: its fee is charged) still
    // spends its nonce, as on a validator.
    const spent = nonceValue();
    const failing = new Transaction().add(
      SystemProgram.nonceAdvance({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: payer.publicKey }),
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 100 * Number(LAMPORTS_PER_SOL),
      }),
    );
    failing.recentBlockhash = spent;
    failing.feePayer = payer.publicKey;
    failing.sign(payer);
    const outcome = cluster.sendTransaction(new Uint8Array(failing.serialize()), { skipPreflight: true });
    expect(outcome.kind).toBe('committed');
    expect(outcome.kind === 'committed' && outcome.record.err).not.toBeNull();
    expect(nonceValue()).not.toBe(spent);
    expect(advanceAndPay(payer, 1_000_000, spent)).toMatchObject({
      kind: 'rejected',
      err: 'BlockhashNotFound',
    });
  });

  it('a lookup table needs a slot still in SlotHashes (the last 512)', async () => {
    const payer = await web3Payer();
    cluster.advanceSlots(600);
    const create = (recentSlot: number) => {
      const [instruction] = AddressLookupTableProgram.createLookupTable({
        authority: payer.publicKey,
        payer: payer.publicKey,
        recentSlot,
      });
      return sendLegacy(new Transaction().add(instruction), [payer], cluster.getLatestBlockhash().blockhash);
    };
    expect(create(cluster.slot - 520)).toMatchObject({ kind: 'rejected' });
    expect(create(cluster.slot - 500).kind).toBe('committed');
    // Right after a restart, the finalized slot (in the gap between the runs) is still recent.
    await cluster.close();
    cluster = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
    cluster.advanceSlots(1);
    expect(create(cluster.slotAt('finalized')).kind).toBe('committed');
  });
});
