/**
 * Benchmark: stock @solana/web3.js 1.x `sendAndConfirmTransaction` (send over HTTP, confirmation
 * from its signature subscription) through the app's `/rpc` and its WebSocket upgrade, commitment
 * 'confirmed' (the ledger's fsync), one SOL transfer at a time on a freshly started server. 20
 * warm-up transfers, then 200 measured. web3.js would derive the WebSocket at port + 1, where the
 * standalone cluster serves it; the app serves it on /rpc, so the endpoint is given. The same
 * transfer is the reference of the swap and on-chain bot benches (lib/transfer-reference.ts).
 */
import { percentile, report, round, startServer } from './lib/harness';
import {
  endTransferReference,
  startTransferReference,
  TRANSFER_REFERENCE_ENV,
} from './lib/transfer-reference';

const TARGET_P50_MS = 50;
const WARM_UP = 20;
const MEASURED = 200;

// A public client is limited to 100 /rpc requests per 10 s; each confirmation makes a few.
const server = await startServer(TRANSFER_REFERENCE_ENV);
try {
  const transfer = await startTransferReference(server.url);
  for (let i = 0; i < WARM_UP; i++) await transfer();
  const times: number[] = [];
  for (let i = 0; i < MEASURED; i++) times.push(await transfer());
  const p50 = percentile(times, 50);
  report(
    'web3-confirm',
    { p50_ms: round(p50, 2), p99_ms: round(percentile(times, 99), 2), transfers: MEASURED },
    [`target_p50_ms=${TARGET_P50_MS}`],
    p50 < TARGET_P50_MS,
  );
} catch (error) {
  // The exit below would end the process before a thrown error is reported.
  console.error(error);
  process.exitCode = 1;
} finally {
  endTransferReference();
  await server.stop();
  // web3.js keeps its own timers (WebSocket reconnects, block-height polls) with no way to close a
  // Connection: leave instead of letting them fail against the stopped server.
  process.exit(process.exitCode ?? 0);
}
