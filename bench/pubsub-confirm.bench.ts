import { getTransferSolInstruction } from '@solana-program/system';
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
import { percentile, report, round, startServer } from './lib/harness';

// Stock subscription-based confirmation against the app's /rpc (HTTP for the send, the WebSocket
// upgrade of /rpc for the signature notification): @solana/kit's sendAndConfirmTransactionFactory at
// commitment 'confirmed', one SOL transfer at a time, on a freshly started server (embedded cluster
// with its ledger on disk: 'confirmed' waits for the fsync). 20 warm-up transfers, 200 measured.
const TARGET_P50_MS = 50;
const WARM_UP = 20;
const MEASURED = 200;

// A public client is limited to 100 /rpc requests per 10 s; each confirmation makes ~4, so the limit is lifted.
const server = await startServer({ RPC_RATE_LIMIT_MAX: '1000000' });
try {
  const endpoint = `${server.url.replace('http://', '')}/rpc`;
  const rpc = createSolanaRpc(`http://${endpoint}`);
  const rpcSubscriptions = createSolanaRpcSubscriptions(`ws://${endpoint}`);
  const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions });
  const payer = await generateKeyPairSigner();
  await airdropFactory({ rpc, rpcSubscriptions })({
    recipientAddress: payer.address,
    lamports: lamports(5_000_000_000n),
    commitment: 'confirmed',
  });
  const recipient = address((await generateKeyPairSigner()).address);
  const transfer = async (amount: bigint) => {
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const transaction = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayerSigner(payer, draft),
        (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetime, draft),
        (draft) =>
          appendTransactionMessageInstructions(
            [getTransferSolInstruction({ source: payer, destination: recipient, amount: lamports(amount) })],
            draft,
          ),
      ),
    );
    assertIsTransactionWithBlockhashLifetime(transaction);
    const started = performance.now();
    await sendAndConfirm(transaction, { commitment: 'confirmed' });
    return performance.now() - started;
  };
  for (let i = 0; i < WARM_UP; i++) await transfer(1_000_000n + BigInt(i));
  const times: number[] = [];
  for (let i = 0; i < MEASURED; i++) times.push(await transfer(2_000_000n + BigInt(i)));
  const p50 = percentile(times, 50);
  report(
    'pubsub-confirm',
    { p50_ms: round(p50, 2), p99_ms: round(percentile(times, 99), 2), transfers: MEASURED },
    [`target_p50_ms=${TARGET_P50_MS}`],
    p50 < TARGET_P50_MS,
  );
} finally {
  await server.stop();
}
