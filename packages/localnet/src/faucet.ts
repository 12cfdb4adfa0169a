/**
 * The faucet's transfer, as a validator's faucet builds it: a legacy transaction holding one System
 * transfer from the treasury, signed with a given recent blockhash.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
  address,
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  createTransactionMessage,
  getSignatureFromTransaction,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from '@solana/kit';
import { MAX_PROCESSING_AGE, type RecentBlockhash } from './blockhash-queue';

export type AirdropInstruction = ReturnType<typeof getTransferSolInstruction>;

/** The System transfer of an airdrop (throws when `recipient` is not an address). */
export function airdropInstruction(
  treasury: KeyPairSigner,
  recipient: string,
  lamports: bigint,
): AirdropInstruction {
  return getTransferSolInstruction({ source: treasury, destination: address(recipient), amount: lamports });
}

/** The signed wire transaction of an airdrop with the given recent blockhash, and its signature. */
export async function signAirdropTransfer(
  treasury: KeyPairSigner,
  instruction: AirdropInstruction,
  recent: RecentBlockhash,
): Promise<{ signature: string; bytes: Uint8Array }> {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (draft) => setTransactionMessageFeePayerSigner(treasury, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: toBlockhash(recent.blockhash),
          lastValidBlockHeight: BigInt(recent.slot + MAX_PROCESSING_AGE),
        },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions([instruction], draft),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return {
    signature: getSignatureFromTransaction(signed),
    bytes: new Uint8Array(getTransactionEncoder().encode(signed)),
  };
}
