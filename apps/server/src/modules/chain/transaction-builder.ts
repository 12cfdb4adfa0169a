import { randomInt } from 'node:crypto';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getTransactionEncoder,
  getTransactionSize,
  partiallySignTransactionWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Instruction,
  type TransactionPartialSigner,
} from '@solana/kit';
import { MAX_TRANSACTION_SIZE_BYTES } from '@solterm/contracts';
import { AppError } from '../../lib/app-error';

/** Compute units every server-built transaction asks for (a swap with ATA creation uses ~60k). */
export const DEFAULT_COMPUTE_UNIT_LIMIT = 200_000;
/** Upper bound (exclusive) of the random units added to the default limit. */
const COMPUTE_UNIT_JITTER = 10_000;
/** The largest compute-unit limit a default-built transaction asks for (priority fees are priced at it). */
export const MAX_DEFAULT_COMPUTE_UNIT_LIMIT = DEFAULT_COMPUTE_UNIT_LIMIT + COMPUTE_UNIT_JITTER;
/** The cluster's base fee per signature, in lamports. */
export const LAMPORTS_PER_SIGNATURE = 5000n;

export interface BlockhashLifetime {
  blockhash: string;
  lastValidBlockHeight: bigint;
}

export interface BuildTransactionInput {
  /** The wallet that pays the fee and signs last (in the browser). */
  feePayer: Address;
  instructions: readonly Instruction[];
  lifetime: BlockhashLifetime;
  /** Parties other than the fee payer that sign now, on the server (the market maker, the venue). */
  coSigners?: readonly TransactionPartialSigner[];
  /** Compute-unit price in micro-lamports (the priority fee); 0 or absent for none. */
  priorityFeeMicroLamports?: number;
  computeUnitLimit?: number;
}

export interface BuiltTransaction {
  /** Wire bytes: the fee payer's signature slot is zero, every co-signer's is filled. */
  wireBytes: Uint8Array;
  base64: string;
  /** The transaction id (the fee payer's signature) when the fee payer is a co-signer, else null. */
  signature: string | null;
  /** The message the wallet signs; the server compares a signed transaction's message to it. */
  messageBytes: Uint8Array;
  lastValidBlockHeight: bigint;
  sizeBytes: number;
  /** Base fee (every signature) plus the priority fee at the compute-unit limit, in lamports. */
  networkFeeLamports: bigint;
}

/** Lamports a compute-unit price costs at a compute-unit limit (rounded up, as the runtime does). */
export function priorityFeeLamports(microLamportsPerUnit: number, computeUnitLimit: number): bigint {
  const microLamports = BigInt(microLamportsPerUnit) * BigInt(computeUnitLimit);
  return (microLamports + 999_999n) / 1_000_000n;
}

/**
 * Compiles a v0 transaction with the wallet as fee payer, the compute budget first, and the
 * co-signers' signatures in place. Refuses one larger than a packet (1232 bytes) with the spec's
 * 'Transaction too large. …'.
 */
export async function buildTransaction(input: BuildTransactionInput): Promise<BuiltTransaction> {
  // A few units of jitter make every built transaction unique: the same order built twice on one
  // blockhash would otherwise be byte-identical, and the second would be a replay of the first.
  const computeUnitLimit =
    input.computeUnitLimit ?? DEFAULT_COMPUTE_UNIT_LIMIT + randomInt(COMPUTE_UNIT_JITTER);
  const priorityFee = input.priorityFeeMicroLamports ?? 0;
  const budget: Instruction[] = [getSetComputeUnitLimitInstruction({ units: computeUnitLimit })];
  if (priorityFee > 0) budget.push(getSetComputeUnitPriceInstruction({ microLamports: BigInt(priorityFee) }));
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(createNoopSigner(input.feePayer), draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: toBlockhash(input.lifetime.blockhash),
          lastValidBlockHeight: input.lifetime.lastValidBlockHeight,
        },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions([...budget, ...input.instructions], draft),
  );
  const compiled = compileTransaction(message);
  const sizeBytes = getTransactionSize(compiled);
  if (sizeBytes > MAX_TRANSACTION_SIZE_BYTES) throw new AppError('TRADING__TRANSACTION_TOO_LARGE');
  const signed = input.coSigners?.length
    ? await partiallySignTransactionWithSigners(input.coSigners, compiled)
    : compiled;
  const signatureCount = BigInt(Object.keys(signed.signatures).length);
  const feePayerSignature = signed.signatures[input.feePayer];
  return {
    signature: feePayerSignature ? getBase58Decoder().decode(feePayerSignature) : null,
    wireBytes: new Uint8Array(getTransactionEncoder().encode(signed)),
    base64: getBase64EncodedWireTransaction(signed),
    messageBytes: new Uint8Array(signed.messageBytes),
    lastValidBlockHeight: input.lifetime.lastValidBlockHeight,
    sizeBytes,
    networkFeeLamports:
      signatureCount * LAMPORTS_PER_SIGNATURE + priorityFeeLamports(priorityFee, computeUnitLimit),
  };
}
