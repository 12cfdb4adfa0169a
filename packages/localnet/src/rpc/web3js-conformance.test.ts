/**
 * Conformance with the clients dApps and wallets ship: stock @solana/web3.js 1.x and
 * @solana/spl-token 0.4 against the standalone server, unmodified — their own confirm paths
 * (signature subscriptions over the PubSub WebSocket web3.js derives at port + 1), their own
 * helpers, their own parsers of every answer. (Kit, with createSolanaRpcSubscriptions, is covered
 * by conformance.test.ts and pubsub.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approve,
  closeAccount,
  createAssociatedTokenAccount,
  createMint,
  createNativeMint,
  createWrappedNativeAccount,
  getAccount,
  getAssociatedTokenAddressSync,
  mintTo,
  NATIVE_MINT,
  NATIVE_MINT_2022,
  revoke,
  transfer,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  NONCE_ACCOUNT_LENGTH,
  PublicKey,
  sendAndConfirmTransaction,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  type ParsedInstruction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnetServer, type LocalnetServer } from '../http-server';
import { createLocalCluster, type LocalCluster } from '../local-cluster';
import { closeWeb3Socket } from '../test-helpers';
import { createJsonRpcHandler } from './json-rpc-handler';
import { createPubSub, type PubSub } from './pubsub';

/** Slots of 250 ms: web3.js caches a blockhash for 30 s, so 150 slots must outlast that. */
const SLOT_MS = 250;

let dataDir: string;
let cluster: LocalCluster;
let pubsub: PubSub;
let server: LocalnetServer;
let connection: Connection;
let payer: Keypair;

/** Starts the server on a port whose successor is free too, where web3.js looks for PubSub. */
async function startOnDerivablePorts(node = cluster, nodePubSub = pubsub): Promise<LocalnetServer> {
  for (let attempt = 0; ; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    try {
      return await startLocalnetServer({ handler: createJsonRpcHandler(node), port, pubsub: nodePubSub });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw error;
    }
  }
}

/** Resolves with the first event a web3.js subscription delivers, then unsubscribes. */
function firstEvent<T>(
  subscribe: (listener: (event: T) => void) => number,
  unsubscribe: (id: number) => Promise<void>,
): Promise<T> {
  return new Promise<T>((resolve) => {
    let done = false;
    const id = subscribe((event) => {
      if (done) return;
      done = true;
      void unsubscribe(id).then(() => resolve(event));
    });
  });
}

async function funded(sol: number): Promise<Keypair> {
  const keypair = Keypair.generate();
  const signature = await connection.requestAirdrop(keypair.publicKey, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return keypair;
}

async function waitForSlot(slot: number): Promise<void> {
  while ((await connection.getSlot('confirmed')) < slot) await new Promise((r) => setTimeout(r, SLOT_MS / 2));
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'localnet-web3-'));
  cluster = await createLocalCluster({ dataDir, slotDurationMs: SLOT_MS });
  pubsub = createPubSub(cluster);
  server = await startOnDerivablePorts();
  // No wsEndpoint: web3.js derives ws://host:port+1 itself.
  connection = new Connection(server.url, 'confirmed');
  payer = await funded(100);
  // Past genesis, so blocks have parents before them.
  await waitForSlot(3);
});

afterAll(async () => {
  closeWeb3Socket(connection);
  pubsub.close();
  await server.close();
  await cluster.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('@solana/web3.js 1.x', () => {
  it('sendAndConfirmTransaction confirms through its signature subscription, and the parsed transaction and block show it', async () => {
    const recipient = Keypair.generate().publicKey;
    const transaction = new Transaction().add(
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1234 }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 1_000_000 }),
    );
    const signature = await sendAndConfirmTransaction(connection, transaction, [payer]);
    expect(await connection.getBalance(recipient)).toBe(1_000_000);

    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed?.meta?.err).toBeNull();
    const instructions = parsed!.transaction.message.instructions;
    // Compute Budget is not parsed by validators either: it stays partially decoded.
    expect(instructions[0]).toMatchObject({ programId: ComputeBudgetProgram.programId });
    expect(instructions[1]).toEqual({
      program: 'system',
      programId: SystemProgram.programId,
      parsed: {
        type: 'transfer',
        info: { source: payer.publicKey.toBase58(), destination: recipient.toBase58(), lamports: 1_000_000 },
      },
      stackHeight: null,
    });

    const slot = parsed!.slot;
    // Its block is confirmed once the slot is complete.
    await waitForSlot(slot);
    const block = await connection.getBlock(slot, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(block?.transactions.map((entry) => entry.transaction.signatures[0])).toContain(signature);
    expect(block?.parentSlot).toBe(slot - 1);
    const parent = await connection.getBlock(slot - 1, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(block?.previousBlockhash).toBe(parent?.blockhash);
    const parsedBlock = await connection.getParsedBlock(slot, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(parsedBlock.blockHeight).toBe(slot);
    const ours = parsedBlock.transactions.find((entry) => entry.transaction.signatures[0] === signature);
    expect(ours?.transaction).toMatchObject({
      message: { instructions: [{}, { program: 'system', parsed: { type: 'transfer' } }] },
    });
    expect(await connection.getBlockTime(slot)).toBe(parsed!.blockTime);
    expect(await connection.getBlocks(slot - 2, slot, 'confirmed')).toEqual([slot - 2, slot - 1, slot]);

    const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [recipient] });
    expect(fees.find((entry) => entry.slot === slot)?.prioritizationFee).toBe(1234);
    // A block is finalized 32 slots later, as on a real cluster.
    await expect(
      connection.getBlock(slot, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }),
    ).rejects.toThrow(/Block not available for slot/);
  });

  it('a durable-nonce transaction lands long after its nonce was read, advances the nonce, and cannot be replayed', async () => {
    const nonceAccount = Keypair.generate();
    const rent = await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH);
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        ...SystemProgram.createNonceAccount({
          fromPubkey: payer.publicKey,
          noncePubkey: nonceAccount.publicKey,
          authorizedPubkey: payer.publicKey,
          lamports: rent,
        }).instructions,
      ),
      [payer, nonceAccount],
    );
    const { nonce } = (await connection.getNonce(nonceAccount.publicKey))!;
    const recipient = Keypair.generate().publicKey;
    const durable = (lamports: number): Transaction => {
      const transaction = new Transaction({
        feePayer: payer.publicKey,
        nonceInfo: {
          nonce,
          nonceInstruction: SystemProgram.nonceAdvance({
            noncePubkey: nonceAccount.publicKey,
            authorizedPubkey: payer.publicKey,
          }),
        },
      }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports }));
      transaction.sign(payer);
      return transaction;
    };
    const minContextSlot = await connection.getSlot();
    const signature = await connection.sendRawTransaction(durable(2_000_000).serialize());
    await connection.confirmTransaction(
      { signature, nonceAccountPubkey: nonceAccount.publicKey, nonceValue: nonce, minContextSlot },
      'confirmed',
    );
    expect(await connection.getBalance(recipient)).toBe(2_000_000);
    const advanced = (await connection.getNonce(nonceAccount.publicKey))!.nonce;
    expect(advanced).not.toBe(nonce);
    const parsedNonce = await connection.getParsedAccountInfo(nonceAccount.publicKey);
    expect(parsedNonce.value?.data).toEqual({
      program: 'nonce',
      parsed: {
        type: 'initialized',
        info: {
          authority: payer.publicKey.toBase58(),
          blockhash: advanced,
          feeCalculator: { lamportsPerSignature: '5000' },
        },
      },
      space: NONCE_ACCOUNT_LENGTH,
    });
    // The used nonce is spent: another transaction on it is refused as an unknown blockhash.
    await expect(connection.sendRawTransaction(durable(3_000_000).serialize())).rejects.toThrow(
      /Blockhash not found/,
    );
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect((parsed!.transaction.message.instructions[0] as ParsedInstruction).parsed).toEqual({
      type: 'advanceNonce',
      info: {
        nonceAccount: nonceAccount.publicKey.toBase58(),
        recentBlockhashesSysvar: 'SysvarRecentB1ockHashes11111111111111111111',
        nonceAuthority: payer.publicKey.toBase58(),
      },
    });
  });

  it('an address lookup table is created from a recent slot, extended, and used by a v0 transaction', async () => {
    const recentSlot = await connection.getSlot('finalized');
    const [create, tableAddress] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot,
    });
    const recipients = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const extend = AddressLookupTableProgram.extendLookupTable({
      payer: payer.publicKey,
      authority: payer.publicKey,
      lookupTable: tableAddress,
      addresses: recipients,
    });
    await sendAndConfirmTransaction(connection, new Transaction().add(create, extend), [payer]);
    // Addresses added in a slot are usable from the next one.
    await waitForSlot((await connection.getSlot()) + 1);
    const table = (await connection.getAddressLookupTable(tableAddress)).value!;
    expect(table.state.addresses.map(String)).toEqual(recipients.map(String));
    const parsedTable = await connection.getParsedAccountInfo(tableAddress);
    expect(parsedTable.value?.data).toMatchObject({
      program: 'address-lookup-table',
      parsed: {
        type: 'lookupTable',
        info: {
          deactivationSlot: '18446744073709551615',
          authority: payer.publicKey.toBase58(),
          addresses: recipients.map(String),
        },
      },
    });

    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: recipients.map((toPubkey) =>
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey, lamports: 1_500_000 }),
      ),
    }).compileToV0Message([table]);
    expect(message.addressTableLookups).toHaveLength(1);
    const transaction = new VersionedTransaction(message);
    transaction.sign([payer]);
    const signature = await connection.sendTransaction(transaction);
    await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    for (const recipient of recipients) expect(await connection.getBalance(recipient)).toBe(1_500_000);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.version).toBe(0);
    expect(landed?.meta?.loadedAddresses?.writable.map(String)).toEqual(recipients.map(String));
  });

  it(
    'every subscription kind delivers: signature, account, program, logs, slot, root',
    { timeout: 30_000 },
    async () => {
      const watched = Keypair.generate().publicKey;
      const slot = firstEvent<{ slot: number }>(
        (listener) => connection.onSlotChange(listener),
        (id) => connection.removeSlotChangeListener(id),
      );
      const root = firstEvent<number>(
        (listener) => connection.onRootChange(listener),
        (id) => connection.removeRootChangeListener(id),
      );
      const account = firstEvent<{ lamports: number }>(
        (listener) => connection.onAccountChange(watched, listener, { commitment: 'confirmed' }),
        (id) => connection.removeAccountChangeListener(id),
      );
      const program = firstEvent<{ accountId: PublicKey }>(
        (listener) =>
          connection.onProgramAccountChange(SystemProgram.programId, listener, { commitment: 'confirmed' }),
        (id) => connection.removeProgramAccountChangeListener(id),
      );
      const logs = firstEvent<{ signature: string; logs: string[] }>(
        (listener) => connection.onLogs(watched, listener, 'confirmed'),
        (id) => connection.removeOnLogsListener(id),
      );
      // Subscriptions are made over the socket asynchronously: let them reach the server first.
      await waitForSlot((await connection.getSlot()) + 2);
      const signature = await sendAndConfirmTransaction(
        connection,
        new Transaction().add(
          SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: watched, lamports: 4_000_000 }),
        ),
        [payer],
      );
      expect((await account).lamports).toBe(4_000_000);
      expect((await program).accountId).toBeInstanceOf(PublicKey);
      const logged = await logs;
      expect(logged.signature).toBe(signature);
      expect(logged.logs[0]).toMatch(/^Program 11111111111111111111111111111111 invoke \[1\]$/);
      expect((await slot).slot).toBeGreaterThan(0);
      expect(await root).toBeGreaterThanOrEqual(0);
    },
  );
});

describe('web3.js’s live test “account change notification”', () => {
  it(
    'hears an airdrop whose request reached the node before the subscription did, both within the slot',
    { timeout: 30_000 },
    async () => {
      // Its own node with slots of a second: the airdrop lands as the slot ends, as on a validator.
      const node = await createLocalCluster({ slotDurationMs: 1_000, tokens: [] });
      const nodePubSub = createPubSub(node);
      const nodeServer = await startOnDerivablePorts(node, nodePubSub);
      const clock = new Connection(nodeServer.url, 'confirmed');
      const watcher = new Connection(nodeServer.url, 'confirmed');
      try {
        // At the start of a slot, so the rest of it is ahead.
        await firstEvent<{ slot: number }>(
          (listener) => clock.onSlotChange(listener),
          (id) => clock.removeSlotChangeListener(id),
        );
        const owner = Keypair.generate();
        // As the live test: the airdrop is not awaited before subscribing.
        const airdrop = clock.requestAirdrop(owner.publicKey, LAMPORTS_PER_SOL);
        // Its fresh connection's socket opens late (a loaded machine): the request is at the node first.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const heard = firstEvent<{ lamports: number; owner: PublicKey }>(
          (listener) => watcher.onAccountChange(owner.publicKey, listener, { commitment: 'confirmed' }),
          (id) => watcher.removeAccountChangeListener(id),
        );
        const notHeard = new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000));
        const info = await Promise.race([heard, notHeard]);
        expect(info?.lamports).toBe(LAMPORTS_PER_SOL);
        expect(info?.owner.equals(SystemProgram.programId)).toBe(true);
        await airdrop;
      } finally {
        closeWeb3Socket(clock);
        closeWeb3Socket(watcher);
        nodePubSub.close();
        await nodeServer.close();
        await node.close();
      }
    },
  );
});

describe('@solana/spl-token 0.4', () => {
  it('createMint, createAssociatedTokenAccount, mintTo, transfer, approve, revoke, closeAccount', async () => {
    const owner = await funded(5);
    const receiver = await funded(5);
    const delegate = Keypair.generate();
    const mint = await createMint(connection, payer, payer.publicKey, null, 6);
    const source = await createAssociatedTokenAccount(connection, payer, mint, owner.publicKey);
    const destination = await createAssociatedTokenAccount(connection, payer, mint, receiver.publicKey);
    expect(destination.equals(getAssociatedTokenAddressSync(mint, receiver.publicKey))).toBe(true);
    await mintTo(connection, payer, mint, source, payer, 5_000_000n);
    const transferred = await transfer(connection, owner, source, destination, owner, 1_250_000n);
    expect((await getAccount(connection, destination)).amount).toBe(1_250_000n);

    await approve(connection, owner, source, delegate.publicKey, owner, 700_000n);
    const approved = await getAccount(connection, source);
    expect(approved.delegate?.equals(delegate.publicKey)).toBe(true);
    expect(approved.delegatedAmount).toBe(700_000n);
    await revoke(connection, owner, source, owner);
    expect((await getAccount(connection, source)).delegate).toBeNull();

    await transfer(connection, receiver, destination, source, receiver, 1_250_000n);
    const rentBack = await connection.getBalance(destination);
    const before = await connection.getBalance(receiver.publicKey);
    await closeAccount(connection, receiver, destination, receiver.publicKey, receiver);
    expect(await connection.getAccountInfo(destination)).toBeNull();
    expect(await connection.getBalance(receiver.publicKey)).toBe(before + rentBack - 5000);

    const parsed = await connection.getParsedTransaction(transferred, { maxSupportedTransactionVersion: 0 });
    expect(parsed!.transaction.message.instructions[0]).toEqual({
      program: 'spl-token',
      programId: TOKEN_PROGRAM_ID,
      parsed: {
        type: 'transfer',
        info: {
          source: source.toBase58(),
          destination: destination.toBase58(),
          authority: owner.publicKey.toBase58(),
          amount: '1250000',
        },
      },
      stackHeight: null,
    });
    const accounts = await connection.getParsedTokenAccountsByOwner(owner.publicKey, { mint });
    expect(accounts.value[0]?.account.data.parsed.info.tokenAmount.uiAmountString).toBe('5');
  });

  it('Token-2022 native mint: absent at genesis as on a validator, so createNativeMint creates it and wraps SOL', async () => {
    // SPL Token's native mint is there; Token-2022's is created on chain (spl-token's e2e-2022 native test).
    expect((await connection.getAccountInfo(NATIVE_MINT))?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(await connection.getAccountInfo(NATIVE_MINT_2022)).toBeNull();
    const owner = await funded(2);
    await createNativeMint(connection, payer, undefined, NATIVE_MINT_2022, TOKEN_2022_PROGRAM_ID);
    const wrapped = await createWrappedNativeAccount(
      connection,
      payer,
      owner.publicKey,
      1_000_000_000,
      undefined,
      undefined,
      TOKEN_2022_PROGRAM_ID,
      NATIVE_MINT_2022,
    );
    const account = await getAccount(connection, wrapped, undefined, TOKEN_2022_PROGRAM_ID);
    expect(account.isNative).toBe(true);
    expect(account.amount).toBe(1_000_000_000n);
  });
});
