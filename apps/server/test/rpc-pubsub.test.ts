import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system';
import {
  address,
  airdropFactory,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  sendAndConfirmTransaction,
  SystemProgram,
  Transaction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { closeWeb3Socket } from '../../../packages/localnet/src/test-helpers';
import { createTestApp, type TestApp } from './helpers/test-app';

// The app's /rpc speaks Solana PubSub on a WebSocket upgrade (served by the cluster's worker), so
// kit's stock subscription-based confirmation works against the app, not only the standalone cluster;
// and it answers CORS like the standalone server.

describe('PubSub at the app’s /rpc', () => {
  let app: TestApp;
  let url: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { JOBS: 'off' } });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.server.address() as { port: number };
    url = `127.0.0.1:${port}/rpc`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('airdrops and confirms a transfer with kit’s sendAndConfirmTransactionFactory, unmodified', async () => {
    const rpc = createSolanaRpc(`http://${url}`);
    const rpcSubscriptions = createSolanaRpcSubscriptions(`ws://${url}`);
    const alice = await generateKeyPairSigner();
    const bob = await generateKeyPairSigner();
    await airdropFactory({ rpc, rpcSubscriptions })({
      recipientAddress: alice.address,
      lamports: lamports(1_000_000_000n),
      commitment: 'confirmed',
    });
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const transaction = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayerSigner(alice, draft),
        (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetime, draft),
        (draft) =>
          appendTransactionMessageInstructions(
            [
              getTransferSolInstruction({
                source: alice,
                destination: address(bob.address),
                amount: lamports(2_000_000n),
              }),
            ],
            draft,
          ),
      ),
    );
    assertIsTransactionWithBlockhashLifetime(transaction);
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transaction, {
      commitment: 'confirmed',
    });
    expect((await rpc.getBalance(bob.address).send()).value).toBe(2_000_000n);
  });

  it('answers CORS as the standalone cluster does: a dApp on another origin may call /rpc', async () => {
    const preflight = await fetch(`http://${url}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://dapp.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('solana-client');
    const answer = await fetch(`http://${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://dapp.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(await answer.json()).toMatchObject({ result: 'ok' });
  });

  it('a client’s connections share one budget of notification bytes per commit: past it a subscription is refused', async () => {
    const rpc = createSolanaRpc(`http://${url}`);
    const rpcSubscriptions = createSolanaRpcSubscriptions(`ws://${url}`);
    const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions });
    const [payer, big] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    for (let grant = 0; grant < 2; grant += 1) {
      await airdropFactory({ rpc, rpcSubscriptions })({
        recipientAddress: payer.address,
        lamports: lamports(5_000_000_000n),
        commitment: 'confirmed',
      });
    }
    const size = 1_000_000;
    const rent = await rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
    const send = async (instruction: Parameters<typeof appendTransactionMessageInstructions>[0][number]) => {
      const { value: lifetime } = await rpc.getLatestBlockhash().send();
      const transaction = await signTransactionMessageWithSigners(
        pipe(
          createTransactionMessage({ version: 0 }),
          (draft) => setTransactionMessageFeePayerSigner(payer, draft),
          (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetime, draft),
          (draft) => appendTransactionMessageInstructions([instruction], draft),
        ),
      );
      assertIsTransactionWithBlockhashLifetime(transaction);
      await sendAndConfirm(transaction, { commitment: 'confirmed' });
    };
    await send(
      getCreateAccountInstruction({
        payer,
        newAccount: big,
        lamports: rent,
        space: BigInt(size),
        programAddress: address('11111111111111111111111111111111'),
      }),
    );
    const sockets = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const socket = new WebSocket(`ws://${url}`);
        await new Promise((resolve) => socket.once('open', resolve));
        const answers: { result?: number; error?: { code: number; message: string } }[] = [];
        let notified = 0;
        socket.on('message', (raw: Buffer) => {
          const message = JSON.parse(raw.toString()) as (typeof answers)[number] & { method?: string };
          if (message.method === 'accountNotification') notified += raw.length;
          else answers.push(message);
        });
        return { socket, answers, notified: () => notified };
      }),
    );
    let slice = 0;
    for (const { socket, answers } of sockets) {
      for (let id = 0; id < 8; id += 1) {
        socket.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'accountSubscribe',
            params: [
              big.address,
              { encoding: 'base64', commitment: 'confirmed', dataSlice: { offset: slice++, length: size } },
            ],
          }),
        );
      }
      while (answers.length < 8) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // 1,333,976 bytes a commit each: 1 fits a connection's 2 MiB, 3 the client's 4 MiB.
    const held = sockets.map(
      ({ answers }) => answers.filter((answer) => typeof answer.result === 'number').length,
    );
    expect(held).toEqual([1, 1, 1, 0]);
    expect(sockets[3]!.answers[0]).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('from this client') },
    });
    await send(getTransferSolInstruction({ source: payer, destination: big.address, amount: lamports(1n) }));
    const total = () => sockets.reduce((sum, { notified }) => sum + notified(), 0);
    while (total() < 3 * size) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(total()).toBeLessThanOrEqual(4 * 1024 * 1024);
    for (const { socket } of sockets) socket.close();
  });

  it('refuses a client’s seventeenth connection', async () => {
    const sockets = await Promise.all(
      Array.from({ length: 17 }, () => {
        const socket = new WebSocket(`ws://${url}`);
        return new Promise<{ socket: WebSocket; code: number | null }>((resolve) => {
          socket.once('close', (code) => resolve({ socket, code }));
          socket.once('open', () => setTimeout(() => resolve({ socket, code: null }), 300));
        });
      }),
    );
    expect(sockets.filter((entry) => entry.code === 1008)).toHaveLength(1);
    for (const entry of sockets) entry.socket.close();
  });

  // Last: web3.js's WebSocket counts against the client's 16 while it is open.
  it('stock web3.js 1.x confirms through /rpc and reads the transaction parsed and its block', async () => {
    const connection = new Connection(`http://${url}`, {
      commitment: 'confirmed',
      wsEndpoint: `ws://${url}`,
    });
    const payer = Keypair.generate();
    const funding = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: funding, ...(await connection.getLatestBlockhash()) });
    const recipient = Keypair.generate().publicKey;
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 3_000_000 }),
      ),
      [payer],
    );
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed?.transaction.message.instructions[0]).toMatchObject({
      program: 'system',
      parsed: { type: 'transfer', info: { lamports: 3_000_000 } },
    });
    // Its block is confirmed once its slot is complete.
    while ((await connection.getSlot('confirmed')) < parsed!.slot)
      await new Promise((r) => setTimeout(r, 100));
    const block = await connection.getBlockSignatures(parsed!.slot, 'confirmed');
    expect(block.signatures).toContain(signature);
    closeWeb3Socket(connection);
  });
});
