/**
 * Agave 2.3 compatibility (issue 29): what the clients' own live suites (web3.js 1.x, kit) ask of
 * a `solana-test-validator`, asked here with the same stock clients against the standalone server
 * on a manual clock, so each answer is checked at a known slot.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  isSolanaError,
  lamports,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_MIN_CONTEXT_SLOT_NOT_REACHED,
  type Base64EncodedWireTransaction,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMintInstruction,
  createInitializeTransferFeeConfigInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  sendAndConfirmTransaction,
  NONCE_ACCOUNT_LENGTH,
  NonceAccount,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBase58 } from '../base58';
import { MAX_SEALED_SLOT_LEAD } from '../cluster-types';
import { durableNonceFromBlockhash } from '../durable-nonce';
import { startLocalnetServer, type LocalnetServer } from '../http-server';
import { createLocalCluster, type LocalCluster } from '../local-cluster';
import { closeWeb3Socket, signInstructions, signTransfer } from '../test-helpers';
import { createJsonRpcHandler } from './json-rpc-handler';
import { createPubSub, type PubSub } from './pubsub';

let dataDir: string;
let cluster: LocalCluster;
let server: LocalnetServer;
let rpc: Rpc<SolanaRpcApi>;
let connection: Connection;
const LAMPORTS_PER_SOL_BIG = BigInt(LAMPORTS_PER_SOL);

async function rawCall(method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: unknown };
}

/** A request whose params are given as JSON text (integer literals beyond 2^53 written exactly). */
async function rawText(method: string, params: string): Promise<{ result?: unknown; error?: unknown }> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`,
  });
  return (await response.json()) as { result?: unknown; error?: unknown };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** A web3.js keypair funded through the faucet, its airdrop confirmed. */
async function web3Payer(sol = 10): Promise<Keypair> {
  const keypair = Keypair.generate();
  await connection.requestAirdrop(keypair.publicKey, sol * LAMPORTS_PER_SOL);
  await cluster.flush();
  return keypair;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'localnet-agave-'));
  cluster = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
  server = await startLocalnetServer({ handler: createJsonRpcHandler(cluster), port: 0 });
  rpc = createSolanaRpc(server.url);
  connection = new Connection(server.url, 'confirmed');
  cluster.advanceSlots(2);
});

afterAll(async () => {
  await server.close();
  await cluster.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('genesis (item 5)', () => {
  it('the genesis block holds no transaction, though the first ones were sent during slot 0', async () => {
    const fresh = await createLocalCluster({ slotClock: 'manual', tokens: [] });
    try {
      const freshServer = await startLocalnetServer({ handler: createJsonRpcHandler(fresh), port: 0 });
      try {
        const freshConnection = new Connection(freshServer.url, 'confirmed');
        expect(await freshConnection.getSlot('processed')).toBe(0);
        const signature = await freshConnection.requestAirdrop(
          Keypair.generate().publicKey,
          LAMPORTS_PER_SOL,
        );
        const genesis = await freshConnection.getBlock(0, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
        });
        expect(genesis?.transactions).toEqual([]);
        const status = await freshConnection.getSignatureStatus(signature);
        expect(status.value?.slot).toBe(1);
      } finally {
        await freshServer.close();
      }
    } finally {
      await fresh.close();
    }
  });
});

describe('commitment (item 2)', () => {
  it('the block of a confirmed transaction is readable at confirmed, and getSlot(confirmed) has reached it', async () => {
    const payer = await generateKeyPairSigner();
    await rpc.requestAirdrop(payer.address, lamports(LAMPORTS_PER_SOL_BIG)).send();
    cluster.advanceSlots(1);
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const transfer = await signInstructions(
      payer,
      [getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n })],
      lifetime,
    );
    const signature = await rpc
      .sendTransaction(transfer.base64 as Base64EncodedWireTransaction, { encoding: 'base64' })
      .send();
    await cluster.flush();
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status?.confirmationStatus).toBe('confirmed');
    const slot = status!.slot;
    expect(await rpc.getSlot({ commitment: 'confirmed' }).send()).toBeGreaterThanOrEqual(slot);
    const block = await rpc
      .getBlock(slot, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
        transactionDetails: 'signatures',
      })
      .send();
    expect(block?.signatures).toContain(signature);
    const blocks = await rpc.getBlocks(slot - 1n, undefined, { commitment: 'confirmed' }).send();
    expect(blocks).toContain(slot);
  });
});

describe('a slot ends once one of its transactions is confirmed (item 2, auto clock)', () => {
  // The auto clock of `npm run localnet` and the app, on a wall that moves only when the test says:
  // every slot change below is the cluster ending a slot because a transaction in it was confirmed.
  let wall = Date.now();
  let sealDir: string;
  let sealing: LocalCluster;
  let sealServer: LocalnetServer;
  let sealPubSub: PubSub;
  let sealConnection: Connection;

  beforeAll(async () => {
    sealDir = await mkdtemp(join(tmpdir(), 'localnet-seal-'));
    // An hour a slot: the timer never ticks during the test; `wall` is the clock's only time.
    sealing = await createLocalCluster({
      dataDir: sealDir,
      fsync: false,
      now: () => wall,
      slotDurationMs: 3_600_000,
      tokens: [],
    });
    sealPubSub = createPubSub(sealing);
    sealServer = await startLocalnetServer({
      handler: createJsonRpcHandler(sealing),
      port: 0,
      pubsub: sealPubSub,
    });
    sealConnection = new Connection(sealServer.url, {
      commitment: 'confirmed',
      wsEndpoint: sealServer.pubsubUrl!,
    });
  });

  afterAll(async () => {
    closeWeb3Socket(sealConnection);
    await sealServer.close();
    sealPubSub.close();
    await sealing.close();
    await rm(sealDir, { recursive: true, force: true });
  });

  /**
   * A treasury transfer sent and confirmed at confirmed, as web3.js's live tests confirm their
   * helpers.airdrop (an airdrop itself lands only as its slot ends, an hour away here).
   */
  async function airdropped(lamportsAmount: number): Promise<Keypair> {
    const keypair = Keypair.generate();
    const latest = await sealConnection.getLatestBlockhash();
    const transfer = await signTransfer(
      sealing.treasury,
      address(keypair.publicKey.toBase58()),
      BigInt(lamportsAmount),
      { blockhash: latest.blockhash, lastValidBlockHeight: BigInt(latest.lastValidBlockHeight) },
    );
    const signature = await sealConnection.sendRawTransaction(transfer.bytes);
    await sealConnection.confirmTransaction({ signature, ...latest }, 'confirmed');
    return keypair;
  }

  it('web3.js “transaction failure”: the same transaction re-signed after confirmation gets a new blockhash and fails on chain', async () => {
    const payer = await airdropped(LAMPORTS_PER_SOL);
    const newAccount = Keypair.generate();
    const transaction = new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: newAccount.publicKey,
        lamports: LAMPORTS_PER_SOL / 2,
        space: 0,
        programId: SystemProgram.programId,
      }),
    );
    // helpers.processTransaction: the latest blockhash, sign, send, confirm at confirmed.
    const process = async (skipPreflight: boolean) => {
      const latest = await sealConnection.getLatestBlockhash();
      transaction.recentBlockhash = latest.blockhash;
      transaction.lastValidBlockHeight = latest.lastValidBlockHeight;
      transaction.sign(payer, newAccount);
      const signature = await sealConnection.sendEncodedTransaction(
        transaction.serialize().toString('base64'),
        skipPreflight ? { skipPreflight } : { preflightCommitment: 'confirmed' },
      );
      const { context, value } = await sealConnection.confirmTransaction(
        { signature, ...latest },
        'confirmed',
      );
      return { signature, blockhash: latest.blockhash, err: value.err, contextSlot: context.slot };
    };
    const first = await process(false);
    expect(first.err).toBeNull();
    const status = (await sealConnection.getSignatureStatus(first.signature)).value!;
    expect(status.confirmationStatus).toBe('confirmed');
    // The confirmed transaction's block is complete: getSlot(confirmed) has passed it and it reads.
    expect(await sealConnection.getSlot('confirmed')).toBeGreaterThanOrEqual(status.slot);
    expect(await sealConnection.getSlot('processed')).toBeGreaterThan(status.slot);
    const block = await sealConnection.getBlock(status.slot, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(block?.transactions.map((entry) => entry.transaction.signatures[0])).toContain(first.signature);
    const second = await process(true);
    expect(second.blockhash).not.toBe(first.blockhash);
    expect(second.signature).not.toBe(first.signature);
    expect(second.err).toEqual({ InstructionError: [0, { Custom: 0 }] });
  });

  it('web3.js nonce confirmation: a nonce created and confirmed is advanced right after by a recent-blockhash transaction', async () => {
    const payer = await airdropped(LAMPORTS_PER_SOL);
    const nonceAccount = Keypair.generate();
    const latest = await sealConnection.getLatestBlockhash();
    const create = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
      ...SystemProgram.createNonceAccount({
        fromPubkey: payer.publicKey,
        noncePubkey: nonceAccount.publicKey,
        authorizedPubkey: payer.publicKey,
        lamports: await sealConnection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH),
      }).instructions,
    );
    const createSignature = await sealConnection.sendTransaction(create, [payer, nonceAccount]);
    const { context } = await sealConnection.confirmTransaction({ ...latest, signature: createSignature });
    const created = await sealConnection.getNonce(nonceAccount.publicKey, { minContextSlot: context.slot });
    // “throws when confirming using a nonce that is no longer valid” advances it at once, with preflight.
    const advance = new Transaction({
      feePayer: payer.publicKey,
      ...(await sealConnection.getLatestBlockhash()),
    }).add(
      SystemProgram.nonceAdvance({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: payer.publicKey }),
    );
    await sendAndConfirmTransaction(sealConnection, advance, [payer]);
    const advanced = await sealConnection.getNonce(nonceAccount.publicKey);
    expect(advanced?.nonce).not.toBe(created?.nonce);
  });

  it('ends at most 32 slots ahead of the wall; past that the open slot reads as confirmed until the wall moves', async () => {
    const lead = async (): Promise<number> => {
      const transfer = await signTransfer(
        sealing.treasury,
        address(Keypair.generate().publicKey.toBase58()),
        LAMPORTS_PER_SOL_BIG,
        sealing.getLatestBlockhash(),
      );
      const outcome = sealing.sendTransaction(transfer.bytes);
      expect(outcome.kind).toBe('committed');
      const signature = outcome.signature;
      await sealing.flush();
      const slot = sealing.getSignatureStatus(signature)!.slot;
      return sealing.slot - slot;
    };
    // Whatever the earlier tests used, the clock is at most 32 slots ahead: fill the lead.
    let ended = 0;
    while ((await lead()) === 1) ended += 1;
    expect(ended).toBeLessThanOrEqual(MAX_SEALED_SLOT_LEAD);
    const capped = await sealConnection.getSlot('processed');
    expect(await lead()).toBe(0);
    expect(await sealConnection.getSlot('confirmed')).toBe(capped);
    expect(sealing.slot).toBe(capped);
    // The wall moves one slot (the timer's tick is an hour away): one more slot may end early.
    wall += sealing.slotDurationMs;
    expect(await lead()).toBe(1);
    expect(await lead()).toBe(0);
  });
});

describe('durable nonces (item 3)', () => {
  it('a nonce created with blockhash B advances slots later by a transaction that carries B; the value is the bank’s', async () => {
    const payer = await web3Payer();
    const nonceAccount = Keypair.generate();
    // web3.js caches one blockhash for 30 s: every transaction below carries it.
    const { blockhash } = await connection.getLatestBlockhash();
    const create = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      ...SystemProgram.createNonceAccount({
        fromPubkey: payer.publicKey,
        noncePubkey: nonceAccount.publicKey,
        authorizedPubkey: payer.publicKey,
        lamports: await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH),
      }).instructions,
    );
    create.sign(payer, nonceAccount);
    await connection.sendRawTransaction(create.serialize());
    await cluster.flush();
    const created = await connection.getNonce(nonceAccount.publicKey);
    cluster.advanceSlots(3);
    const advance = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.nonceAdvance({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: payer.publicKey }),
    );
    advance.sign(payer);
    await connection.sendRawTransaction(advance.serialize());
    await cluster.flush();
    const advanced = await connection.getNonce(nonceAccount.publicKey);
    expect(advanced?.nonce).not.toBe(created?.nonce);
    // DurableNonce::from_blockhash of the bank's blockhash (the slot's), not of the transaction's.
    const bank = cluster.getLatestBlockhash().blockhash;
    const bankBytes = new PublicKey(bank).toBytes();
    expect(advanced?.nonce).toBe(encodeBase58(durableNonceFromBlockhash(bankBytes)));
    // Once a slot, as on a validator: a second advance in the same slot fails with Custom 7.
    const again = new Transaction({ feePayer: payer.publicKey, recentBlockhash: bank }).add(
      SystemProgram.nonceAdvance({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: payer.publicKey }),
    );
    again.sign(payer);
    const error = await rejection(connection.sendRawTransaction(again.serialize()));
    expect(error).toBeInstanceOf(SendTransactionError);
    expect(String((error as Error).message)).toContain('custom program error: 0x7');
    // A durable transaction using the advanced value lands the next slot.
    cluster.advanceSlots(1);
    const durable = new Transaction({ feePayer: payer.publicKey, recentBlockhash: advanced!.nonce }).add(
      SystemProgram.nonceAdvance({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: payer.publicKey }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }),
    );
    durable.sign(payer);
    const durableSignature = await connection.sendRawTransaction(durable.serialize());
    await cluster.flush();
    const landed = await connection.getSignatureStatus(durableSignature);
    expect(landed.value?.err).toBeNull();
    const info = await connection.getAccountInfo(nonceAccount.publicKey);
    expect(NonceAccount.fromAccountData(info!.data).nonce).not.toBe(advanced!.nonce);
  });
});

describe('requestAirdrop (items 1 and 4)', () => {
  it('is a legacy transaction with one System transfer, readable without maxSupportedTransactionVersion', async () => {
    const recipient = Keypair.generate().publicKey;
    const first = await connection.requestAirdrop(recipient, LAMPORTS_PER_SOL);
    // The same request again in the same slot is a distinct transaction, and both credit.
    const second = await connection.requestAirdrop(recipient, LAMPORTS_PER_SOL);
    expect(second).not.toBe(first);
    await cluster.flush();
    expect(await connection.getBalance(recipient)).toBe(2 * LAMPORTS_PER_SOL);
    const transaction = await connection.getTransaction(first, { commitment: 'confirmed' });
    expect(transaction?.transaction.message.instructions).toHaveLength(1);
    expect(transaction?.meta?.logMessages).toEqual([
      'Program 11111111111111111111111111111111 invoke [1]',
      'Program 11111111111111111111111111111111 success',
    ]);
    const block = await connection.getBlock(transaction!.slot, { commitment: 'confirmed' });
    expect(block?.transactions.map((entry) => entry.transaction.signatures[0])).toContain(first);
  });

  it('below rent exemption for a new account: a signature, and the transaction fails on chain', async () => {
    const recipient = Keypair.generate().publicKey;
    const signature = await connection.requestAirdrop(recipient, 1);
    await cluster.flush();
    const status = await connection.getSignatureStatus(signature);
    expect(status.value?.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
    expect(await connection.getBalance(recipient)).toBe(0);
  });
});

describe('answers in Agave 2.3’s shapes (items 6, 8, 9, 11, 12)', () => {
  it('getMultipleAccounts defaults to base64', async () => {
    const treasury = cluster.treasury.address;
    const raw = await rawCall('getMultipleAccounts', [[treasury]]);
    expect((raw.result as { value: { data: unknown }[] }).value[0]!.data).toEqual(['', 'base64']);
    const infos = await connection.getMultipleAccountsInfo([new PublicKey(treasury)]);
    expect(infos[0]?.lamports).toBeGreaterThan(0);
  });

  it('u64 params are parsed exactly: minContextSlot 2^63 − 1 is not reached (-32016)', async () => {
    // As serde reads the body on a validator; kit refuses to send such a number unless told to.
    const slot = await rawText('getSlot', '[{"minContextSlot":9223372036854775807}]');
    expect(slot.error).toMatchObject({
      code: SOLANA_ERROR__JSON_RPC__SERVER_ERROR_MIN_CONTEXT_SLOT_NOT_REACHED,
      message: 'Minimum context slot has not been reached',
      data: { contextSlot: cluster.slot },
    });
    const balance = await rawText(
      'getBalance',
      `["${cluster.treasury.address}",{"minContextSlot":18446744073709551615}]`,
    );
    expect(balance.error).toMatchObject({ code: -32016 });
    // Past u64 is refused as a bad param.
    expect((await rawText('getSlot', '[{"minContextSlot":18446744073709551616}]')).error).toMatchObject({
      code: -32602,
    });
  });

  it('slots past 2^53 are named exactly in errors, and getSlotLeaders refuses epochs without a schedule', async () => {
    // kit's getBlockTime, getBlockProduction and getSlotLeaders live tests send u64::MAX / 2.
    const blockTime = await rawText('getBlockTime', '[9223372036854775807]');
    expect(blockTime.error).toMatchObject({
      code: SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE,
      message: 'Block not available for slot 9223372036854775807',
    });
    expect((await rawText('getBlock', '[9223372036854775807]')).error).toMatchObject({
      message: 'Block not available for slot 9223372036854775807',
    });
    const production = await rawText(
      'getBlockProduction',
      '[{"range":{"firstSlot":0,"lastSlot":9223372036854775807}}]',
    );
    expect(production.error).toMatchObject({ code: -32602 });
    expect((production.error as { message: string }).message).toMatch(
      /^lastSlot, 9223372036854775807, is too large; max \d+$/,
    );
    expect((await rawText('getSlotLeaders', '[9223372036854775807,3]')).error).toEqual({
      code: -32602,
      message: 'Invalid slot range: leader schedule for epoch 21350398233460 is unavailable',
    });
    // Known up to the next epoch: a range running past it names the first unknown one.
    const nextEpochEnd = 2 * 432_000 - 1;
    expect((await rawText('getSlotLeaders', `[${nextEpochEnd},2]`)).error).toEqual({
      code: -32602,
      message: 'Invalid slot range: leader schedule for epoch 2 is unavailable',
    });
    expect((await rawText('getSlotLeaders', `[${nextEpochEnd},1]`)).result).toEqual([
      cluster.treasury.address,
    ]);
  });

  it('getInflationReward for an epoch whose boundary block does not exist yet answers -32004', async () => {
    const far = await rawText('getInflationReward', '[[],{"epoch":9223372036854775807}]');
    expect(far.error).toMatchObject({
      code: SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE,
      message: 'Block not available for slot 18446744073709551615',
    });
    const current = await rejection(rpc.getInflationReward([], { epoch: 0n }).send());
    expect(isSolanaError(current, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE)).toBe(true);
  });

  it('getMaxShredInsertSlot answers the newest slot', async () => {
    cluster.advanceSlots(1);
    expect(await rpc.getMaxShredInsertSlot().send()).toBe(BigInt(cluster.slot));
  });

  it('the Rent sysvar is Agave 2.3’s: 3,480 lamports per byte-year, threshold 2.0, 1,009,200 lamports', async () => {
    const rent = new PublicKey('SysvarRent111111111111111111111111111111111');
    const parsed = await connection.getParsedAccountInfo(rent);
    expect(parsed.value?.lamports).toBe(1_009_200);
    expect(parsed.value?.data).toEqual({
      program: 'sysvar',
      parsed: { type: 'rent', info: { lamportsPerByteYear: '3480', exemptionThreshold: 2, burnPercent: 50 } },
      space: 17,
    });
    expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890_880);
    const kitRent = await rpc.getAccountInfo(address(rent.toBase58()), { encoding: 'base64' }).send();
    expect(kitRent.value?.lamports).toBe(1_009_200n);
  });
});

describe('error texts (item 10)', () => {
  /** A wire transaction with one (zero) signature and the given message bytes, base64. */
  const wire = (message: Uint8Array): string =>
    Buffer.from([1, ...new Uint8Array(64), ...message]).toString('base64');

  it('malformed and unsupported-version transactions, as kit’s sendTransaction tests expect', async () => {
    const payer = await generateKeyPairSigner();
    const signed = await signInstructions(
      payer,
      [getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n })],
      cluster.getLatestBlockhash(),
    );
    const message = Buffer.from(signed.messageBase64, 'base64');
    message[0] = 0xfe; // version 126
    const unsupported = await rejection(
      rpc.sendTransaction(wire(message) as Base64EncodedWireTransaction, { encoding: 'base64' }).send(),
    );
    expect(unsupported).toMatchObject({
      context: { __code: -32602 },
      message: expect.stringContaining(
        'invalid value: integer `126`, expected a valid transaction message version',
      ),
    });
    const malformed = await rawCall('sendTransaction', [
      wire(new Uint8Array([4, 5, 6])),
      { encoding: 'base64' },
    ]);
    expect(malformed.error).toEqual({
      code: -32602,
      message:
        'failed to deserialize solana_transaction::versioned::VersionedTransaction: io error: failed to fill whole buffer',
    });
  });

  it('getFeeForMessage with invalid base64, getSlotLeaders past 5,000, getTokenSupply of a non-mint', async () => {
    expect((await rawCall('getFeeForMessage', ['!AAA'])).error).toEqual({
      code: -32602,
      message: 'invalid base64 encoding: InvalidByte(0, 33)',
    });
    expect((await rawCall('getFeeForMessage', ['AAB='])).error).toEqual({
      code: -32602,
      message: 'invalid base64 encoding: InvalidLastSymbol(2, 66)',
    });
    expect((await rawCall('getFeeForMessage', ['AQ'])).error).toEqual({
      code: -32602,
      message: 'invalid base64 encoding: InvalidPadding',
    });
    expect((await rawCall('getSlotLeaders', [0, 5001])).error).toEqual({
      code: -32602,
      message: 'Invalid limit; max 5000',
    });
    const supplyError = async (account: string) => (await rawCall('getTokenSupply', [account])).error;
    expect(await supplyError(cluster.treasury.address)).toEqual({
      code: -32602,
      message: 'Invalid param: not a Token mint',
    });
    expect(await supplyError(Keypair.generate().publicKey.toBase58())).toEqual({
      code: -32602,
      message: 'Invalid param: could not find account',
    });
  });
});

describe('Token-2022 in jsonParsed (item 7)', () => {
  it('a mint with a transfer fee shows its extensions, and its accounts theirs, as Agave parses them', async () => {
    const payer = await web3Payer();
    const mint = Keypair.generate();
    const space = getMintLen([ExtensionType.TransferFeeConfig]);
    const create = new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: mint.publicKey,
        space,
        lamports: await connection.getMinimumBalanceForRentExemption(space),
        programId: TOKEN_2022_PROGRAM_ID,
      }),
      createInitializeTransferFeeConfigInstruction(
        mint.publicKey,
        payer.publicKey,
        null,
        50,
        5_000n,
        TOKEN_2022_PROGRAM_ID,
      ),
      createInitializeMintInstruction(mint.publicKey, 6, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
    );
    create.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    create.sign(payer, mint);
    await connection.sendRawTransaction(create.serialize());
    await cluster.flush();
    const parsed = await connection.getParsedAccountInfo(mint.publicKey);
    const info = (parsed.value?.data as { parsed: { info: Record<string, unknown> } }).parsed.info;
    expect(info.extensions).toEqual([
      {
        extension: 'transferFeeConfig',
        state: {
          transferFeeConfigAuthority: payer.publicKey.toBase58(),
          withdrawWithheldAuthority: null,
          withheldAmount: 0,
          olderTransferFee: { epoch: 0, maximumFee: 5000, transferFeeBasisPoints: 50 },
          newerTransferFee: { epoch: 0, maximumFee: 5000, transferFeeBasisPoints: 50 },
        },
      },
    ]);
    const holder = getAssociatedTokenAddressSync(
      mint.publicKey,
      payer.publicKey,
      false,
      TOKEN_2022_PROGRAM_ID,
    );
    const open = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(
        payer.publicKey,
        holder,
        payer.publicKey,
        mint.publicKey,
        TOKEN_2022_PROGRAM_ID,
      ),
    );
    open.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    open.sign(payer);
    await connection.sendRawTransaction(open.serialize());
    await cluster.flush();
    const account = await connection.getParsedAccountInfo(holder);
    const accountInfo = (account.value?.data as { parsed: { info: Record<string, unknown> } }).parsed.info;
    // In the order the account holds them (the associated token program writes immutableOwner first).
    expect(accountInfo.extensions).toEqual([
      { extension: 'immutableOwner' },
      { extension: 'transferFeeAmount', state: { withheldAmount: 0 } },
    ]);
  });
});
