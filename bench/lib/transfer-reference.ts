import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  sendAndConfirmTransaction,
  SystemProgram,
  Transaction,
} from '@solana/web3.js';

/**
 * The reference a server-side trade is compared with in the same run: the cluster alone, as a dApp
 * meets it — a plain SOL transfer sent with stock web3.js `sendAndConfirmTransaction` through the
 * app's `/rpc` (commitment `confirmed`, confirmation from its signature subscription). A trade does
 * all of that and more (quote, build, co-sign, simulate, record), so its latency over this one is
 * what the product adds. The server must be started with its /rpc rate limit lifted
 * (`TRANSFER_REFERENCE_ENV`). web3.js keeps timers a Connection cannot close, and a confirmation's
 * losing strategy may still have a request in flight: a bench using this calls `endTransferReference`
 * before it stops the server, and ends with `process.exit`.
 */
export const TRANSFER_REFERENCE_ENV = { RPC_RATE_LIMIT_MAX: '1000000' } as const;

export async function startTransferReference(serverUrl: string) {
  const endpoint = `${serverUrl}/rpc`;
  const connection = new Connection(endpoint, {
    commitment: 'confirmed',
    wsEndpoint: endpoint.replace('http://', 'ws://'),
  });
  const payer = Keypair.generate();
  const funding = await connection.requestAirdrop(payer.publicKey, 5 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature: funding, ...(await connection.getLatestBlockhash()) });
  const recipient = Keypair.generate().publicKey;
  let sent = 0;
  /** One transfer (each of a different amount, so no two are the same transaction); its milliseconds. */
  return async function transfer(): Promise<number> {
    sent += 1;
    const transaction = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: recipient,
        lamports: 1_000_000 + sent,
      }),
    );
    const started = performance.now();
    await sendAndConfirmTransaction(connection, transaction, [payer]);
    return performance.now() - started;
  };
}

/**
 * From now on, a request web3.js still has in flight failing as the server stops (its rejection is
 * nobody's: web3.js leaves it unhandled) does not end the bench; any other unhandled rejection still
 * does.
 */
export function endTransferReference(): void {
  process.on('unhandledRejection', (reason) => {
    if (reason instanceof TypeError && reason.message === 'fetch failed') return;
    throw reason;
  });
}
