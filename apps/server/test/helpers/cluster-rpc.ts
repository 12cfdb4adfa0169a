import {
  appendTransactionMessageInstructions,
  blockhash,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';

/** A raw JSON-RPC call to the cluster, as the tests make them. */
export type RawRpc = (method: string, params: unknown[]) => Promise<{ result?: unknown }>;

/** A v0 message of `instructions`, paid by `feePayer`, living on the cluster's latest blockhash. */
export async function messageOnLatestBlockhash<TFeePayer extends TransactionSigner>(
  rpc: RawRpc,
  feePayer: TFeePayer,
  instructions: readonly Instruction[],
) {
  const { value } = (await rpc('getLatestBlockhash', [])).result as {
    value: { blockhash: string; lastValidBlockHeight: number };
  };
  return pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(feePayer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash(value.blockhash), lastValidBlockHeight: BigInt(value.lastValidBlockHeight) },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  );
}
