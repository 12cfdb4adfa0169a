/**
 * Benchmark: stock @solana/web3.js 1.x `sendAndConfirmTransaction` (send over HTTP, confirmation
 * from its signature subscription) through the app's `/rpc` and its WebSocket upgrade, commitment
 * 'confirmed' (the ledger's fsync), one SOL transfer at a time on a freshly started server. 20
 * warm-up transfers, then 200 measured. web3.js would derive the WebSocket at port + 1, where the
 * standalone cluster serves it; the app serves it on /rpc, so the endpoint is given.
 */
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  sendAndConfirmTransaction,
  SystemProgram,
  Transaction,
} from '@solana/web3.js';
import { percentile, report, round, startServer } from './lib/harness';

const TARGET_P50_MS = 50;
const WARM_UP = 20;
const MEASURED = 200;

// A public client is limited to 100 /rpc requests per 10 s; each confirmation makes a few.
const server = await startServer({ RPC_RATE_LIMIT_MAX: '1000000' });
try {
  const endpoint = `${server.url}/rpc`;
  const connection = new Connection(endpoint, {
    commitment: 'confirmed',
    wsEndpoint: endpoint.replace('http://', 'ws://'),
  });
  const payer = Keypair.generate();
  const funding = await connection.requestAirdrop(payer.publicKey, 5 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature: funding, ...(await connection.getLatestBlockhash()) });
  const recipient = Keypair.generate().publicKey;
  const transfer = async (lamports: number): Promise<number> => {
    const transaction = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports }),
    );
    const started = performance.now();
    await sendAndConfirmTransaction(connection, transaction, [payer]);
    return performance.now() - started;
  };
  for (let i = 0; i < WARM_UP; i++) await transfer(1_000_000 + i);
  const times: number[] = [];
  for (let i = 0; i < MEASURED; i++) times.push(await transfer(2_000_000 + i));
  const p50 = percentile(times, 50);
  report(
    'web3-confirm',
    { p50_ms: round(p50, 2), p99_ms: round(percentile(times, 99), 2), transfers: MEASURED },
    [`target_p50_ms=${TARGET_P50_MS}`],
    p50 < TARGET_P50_MS,
  );
} finally {
  await server.stop();
  // web3.js keeps its own timers (WebSocket reconnects, block-height polls) with no way to close a
  // Connection: leave instead of letting them fail against the stopped server.
  process.exit(process.exitCode ?? 0);
}
