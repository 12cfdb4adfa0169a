import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  address,
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type TransactionPartialSigner,
} from '@solana/kit';
import type { BlockhashLifetime } from '../chain/transaction-builder';

/**
 * Rent-exempt minimum of an account without data (a wallet), in lamports: the runtime refuses a
 * transfer that creates a wallet below it or leaves the sender between 0 and it.
 */
export const RENT_EXEMPT_WALLET_LAMPORTS = 890_880n;
/** Rent-exempt minimum of an SPL token account (165 bytes), paid by whoever creates it. */
export const RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS = 2_039_280n;

/** The owner's associated token account of `mint` (SPL Token program). */
export async function associatedTokenAddress(owner: string, mint: string): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return ata;
}

/** A system transfer of `lamports` from the wallet (signing later, in the browser) to `to`. */
export function solTransferInstructions(from: string, to: string, lamports: bigint): Instruction[] {
  return [
    getTransferSolInstruction({
      source: createNoopSigner(address(from)),
      destination: address(to),
      amount: lamports,
    }),
  ];
}

export interface TokenTransferInput {
  from: string;
  to: string;
  mint: string;
  /** Base units. */
  amount: bigint;
  decimals: number;
}

/**
 * Creates the recipient's associated token account if missing (the sender pays its rent), then
 * moves `amount` from the sender's associated token account with transferChecked.
 */
export async function tokenTransferInstructions(input: TokenTransferInput): Promise<Instruction[]> {
  const sender = createNoopSigner(address(input.from));
  const mint = address(input.mint);
  const [source, destination] = await Promise.all([
    associatedTokenAddress(input.from, input.mint),
    associatedTokenAddress(input.to, input.mint),
  ]);
  return [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: sender,
      ata: destination,
      owner: address(input.to),
      mint,
    }),
    getTransferCheckedInstruction({
      source,
      mint,
      destination,
      authority: sender,
      amount: input.amount,
      decimals: input.decimals,
    }),
  ];
}

export interface FaucetMintInput {
  /** The mint authority; also the fee payer and the payer of the recipient's token account. */
  minter: TransactionPartialSigner;
  recipient: string;
  mint: string;
  /** Base units. */
  amount: bigint;
  decimals: number;
  lifetime: BlockhashLifetime;
}

/** The faucet's token leg, fully signed by the minter: create the recipient's ATA, then mintToChecked. */
export async function signFaucetMint(input: FaucetMintInput): Promise<{ base64: string; signature: string }> {
  const mint = address(input.mint);
  const token = await associatedTokenAddress(input.recipient, input.mint);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(input.minter, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: toBlockhash(input.lifetime.blockhash),
          lastValidBlockHeight: input.lifetime.lastValidBlockHeight,
        },
        draft,
      ),
    (draft) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({
            payer: input.minter,
            ata: token,
            owner: address(input.recipient),
            mint,
          }),
          getMintToCheckedInstruction({
            mint,
            token,
            mintAuthority: input.minter,
            amount: input.amount,
            decimals: input.decimals,
          }),
        ],
        draft,
      ),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return { base64: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed) };
}
