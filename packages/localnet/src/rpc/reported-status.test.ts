/**
 * A transaction's status is reported once its block is confirmed, as a validator reports it
 * (issue 29: web3.js's live tests “transaction failure” and “get confirmed transaction”). web3.js's
 * `confirmTransaction` subscribes, then reads the status once and throws a failed transaction's
 * error it finds there; on a validator the status is not there yet and the notification answers
 * `{ err }`. Here the ledger's disk write is held open by the test, so the client subscribes and
 * reads while the transaction is committed but not yet confirmed: the case that raced before.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  NONCE_ACCOUNT_LENGTH,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  PublicKey,
} from '@solana/web3.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeBase58 } from '../base58';
import { startLocalnetServer, type LocalnetServer } from '../http-server';
import { createLocalCluster, type LocalCluster } from '../local-cluster';
import { closeWeb3Socket } from '../test-helpers';
import { createJsonRpcHandler } from './json-rpc-handler';
import { createPubSub, type PubSub } from './pubsub';

let dataDir: string;
let cluster: LocalCluster;
let pubsub: PubSub;
let server: LocalnetServer;
let connection: Connection;
/** Settles expectStatusesAnswer(): called once a getSignatureStatuses request has been answered. */
let answerStatuses: () => void = () => undefined;
/** Opens the ledger's held disk write (see holdLedgerWrites). */
let release: () => void = () => undefined;

function expectStatusesAnswer(): Promise<void> {
  return new Promise((resolve) => (answerStatuses = resolve));
}

/** Holds the ledger's next fdatasync until `release()`: commits stay `processed` meanwhile. */
function holdLedgerWrites(): void {
  const handle = (cluster as unknown as { ledger: { handle: FileHandle } }).ledger.handle;
  const datasync = handle.datasync.bind(handle);
  const gate = new Promise<void>((resolve) => (release = resolve));
  handle.datasync = async () => {
    await gate;
    handle.datasync = datasync;
    return datasync();
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'localnet-reported-'));
  cluster = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [] });
  pubsub = createPubSub(cluster);
  const handler = createJsonRpcHandler(cluster);
  server = await startLocalnetServer({
    handler: {
      async handleJsonRpcText(body, caller) {
        const answer = await handler.handleJsonRpcText(body, caller);
        const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
        if (text.includes('"getSignatureStatuses"')) answerStatuses();
        return answer;
      },
    },
    port: 0,
    pubsub,
  });
  connection = new Connection(server.url, { commitment: 'confirmed', wsEndpoint: server.pubsubUrl! });
  cluster.advanceSlots(2);
});

afterEach(() => release());

afterAll(async () => {
  closeWeb3Socket(connection);
  await server.close();
  pubsub.close();
  await cluster.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('statuses are reported once confirmed (web3.js “transaction failure”)', () => {
  it('confirmTransaction answers the on-chain error of a skipPreflight transaction it subscribed to before the ledger had it', async () => {
    const payer = Keypair.generate();
    await cluster.requestAirdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    await cluster.flush();
    const latest = await connection.getLatestBlockhash();
    // More than the payer holds: fails on chain with the System program's Custom(1), fee charged.
    const transaction = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 2 * LAMPORTS_PER_SOL,
      }),
    );
    transaction.sign(payer);

    holdLedgerWrites();
    const signature = await connection.sendEncodedTransaction(transaction.serialize().toString('base64'), {
      skipPreflight: true,
    });
    const asked = expectStatusesAnswer();
    const confirmation = connection.confirmTransaction({ signature, ...latest }, 'confirmed');
    // web3.js has subscribed and read the status: committed, not yet reported.
    await asked;
    expect(cluster.getSignatureStatus(signature)?.confirmationStatus).toBe('processed');
    expect((await connection.getSignatureStatus(signature)).value).toBeNull();
    release();

    const { value } = await confirmation;
    expect(value.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect((await connection.getSignatureStatus(signature)).value).toMatchObject({
      confirmationStatus: 'confirmed',
      err: { InstructionError: [0, { Custom: 1 }] },
    });
  });

  it('helpers.airdrop of 1 lamport to a new account (“get confirmed transaction”): confirmed with its error, not yet finalized', async () => {
    const recipient = Keypair.generate().publicKey;
    holdLedgerWrites();
    const signature = await connection.requestAirdrop(recipient, 1);
    const asked = expectStatusesAnswer();
    const confirmation = connection.confirmTransaction(signature, 'confirmed');
    await asked;
    release();

    const { value } = await confirmation;
    expect(value.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
    // getConfirmedTransaction asks at the connection's default, finalized: 32 slots away.
    expect(await new Connection(server.url).getTransaction(signature)).toBeNull();
  });

  it('web3.js “confirms transactions using the durable nonce strategy” at processed: the nonce read waits for the status', async () => {
    const payer = Keypair.generate();
    await cluster.requestAirdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    const nonceKeypair = Keypair.generate();
    const latest = await connection.getLatestBlockhash();
    const create = new Transaction({ feePayer: payer.publicKey, ...latest }).add(
      ...SystemProgram.createNonceAccount({
        fromPubkey: payer.publicKey,
        noncePubkey: nonceKeypair.publicKey,
        authorizedPubkey: payer.publicKey,
        lamports: await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH),
      }).instructions,
    );
    const created = await connection.sendTransaction(create, [payer, nonceKeypair]);
    const { context } = await connection.confirmTransaction({ ...latest, signature: created });
    const minContextSlot = context.slot;
    const nonce = (await connection.getNonce(nonceKeypair.publicKey, { minContextSlot }))!.nonce;
    cluster.advanceSlots(1);
    // The live test's transaction: a memo under the nonce, confirmed at processed.
    const transaction = new Transaction({
      minContextSlot,
      nonceInfo: {
        nonce,
        nonceInstruction: SystemProgram.nonceAdvance({
          authorizedPubkey: payer.publicKey,
          noncePubkey: nonceKeypair.publicKey,
        }),
      },
    }).add(
      new TransactionInstruction({
        keys: [{ pubkey: payer.publicKey, isSigner: true, isWritable: true }],
        programId: new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'),
        data: Buffer.from('Hello world', 'utf8'),
      }),
    );
    transaction.sign(payer);

    // The ledger's disk write is slow (a loaded machine): the nonce is advanced on the bank, the
    // transaction not yet reported. web3.js reads the nonce at processed first, then the status.
    holdLedgerWrites();
    const signature = await connection.sendTransaction(transaction, [payer]);
    const confirmation = connection.confirmTransaction(
      { minContextSlot, nonceAccountPubkey: nonceKeypair.publicKey, nonceValue: nonce, signature },
      'processed',
    );
    const settledEarly = await Promise.race([
      confirmation.then(
        () => 'answered',
        (error: Error) => error.name,
      ),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
    ]);
    expect(settledEarly).toBe('waiting');
    release();
    const { value } = await confirmation;
    expect(value.err).toBeNull();
  });

  it('a processed subscription made before the commit is notified once the transaction is confirmed, with the status', async () => {
    const payer = Keypair.generate();
    await cluster.requestAirdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    await cluster.flush();
    const sent: string[] = [];
    const socket = pubsub.connect((text) => sent.push(text));
    const latest = cluster.getLatestBlockhash();
    const transaction = new Transaction({
      feePayer: payer.publicKey,
      blockhash: latest.blockhash,
      lastValidBlockHeight: Number(latest.lastValidBlockHeight),
    }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }));
    transaction.sign(payer);
    const signature = encodeBase58(transaction.signature!);
    socket.handle(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'signatureSubscribe',
        params: [signature, { commitment: 'processed' }],
      }),
    );
    const notified = () => sent.filter((text) => text.includes('signatureNotification'));
    cluster.sendTransaction(new Uint8Array(transaction.serialize()));
    // Executed on the bank at once, but neither notified nor reported until the ledger has it.
    expect(cluster.getSignatureStatus(signature)?.confirmationStatus).toBe('processed');
    expect(notified()).toHaveLength(0);
    expect(cluster.getReportedSignatureStatus(signature)).toBeNull();
    await cluster.whenReported(signature);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cluster.getReportedSignatureStatus(signature)?.confirmationStatus).toBe('confirmed');
    expect(notified()).toHaveLength(1);
    socket.close();
  });
});
