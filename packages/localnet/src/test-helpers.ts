/**
 * Helpers for the localnet tests: kit-built, kit-signed transactions. Not part of the package's
 * public face.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import type { Connection } from '@solana/web3.js';

export interface SignedTransaction {
  readonly signature: string;
  readonly bytes: Uint8Array;
  readonly base64: string;
  /** The message bytes alone, base64 (what getFeeForMessage takes). */
  readonly messageBase64: string;
}

export interface Lifetime {
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
}

/** Builds and signs a v0 transaction with kit. */
export async function signInstructions(
  feePayer: TransactionSigner,
  instructions: readonly Instruction[],
  lifetime: Lifetime,
): Promise<SignedTransaction> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(feePayer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: toBlockhash(lifetime.blockhash), lastValidBlockHeight: lifetime.lastValidBlockHeight },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  return {
    signature: getSignatureFromTransaction(transaction),
    bytes: new Uint8Array(getTransactionEncoder().encode(transaction)),
    base64: getBase64EncodedWireTransaction(transaction),
    messageBase64: Buffer.from(transaction.messageBytes).toString('base64'),
  };
}

/** A signed SOL transfer. */
export function signTransfer(
  source: TransactionSigner,
  destination: Address,
  amount: bigint,
  lifetime: Lifetime,
): Promise<SignedTransaction> {
  return signInstructions(source, [getTransferSolInstruction({ source, destination, amount })], lifetime);
}

/**
 * Closes a web3.js 1.x Connection's WebSocket, which web3.js has no method for. It closes the socket
 * itself 500 ms after the last subscription ends; a server that stops first leaves it reconnecting
 * every second for the rest of the test worker's life ("ws error: connect ECONNREFUSED" in later
 * files' output). Its socket client stops reconnecting first: web3.js connects once more on a close
 * while a subscription is still being removed.
 */
export function closeWeb3Socket(connection: Connection): void {
  const { _rpcWebSocket: socket } = connection as unknown as {
    _rpcWebSocket: { setAutoReconnect(reconnect: boolean): void; close(): void };
  };
  socket.setAutoReconnect(false);
  socket.close();
}
