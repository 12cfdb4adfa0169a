import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { address, type Address, type Instruction, type TransactionSigner } from '@solana/kit';
import { WRAPPED_SOL_MINT } from '@solterm/contracts';

/** A token as a transfer needs it: SOL is the wrapped-SOL mint and moves as lamports. */
export interface LegToken {
  mint: string;
  decimals: number;
}

const MAX_CACHED_ADDRESSES = 10_000;
const derivedAddresses = new Map<string, Promise<Address>>();

/** The associated token account of `owner` for `mint` (derivations are cached: they never change). */
export function associatedTokenAddress(owner: string, mint: string): Promise<Address> {
  const key = `${owner}:${mint}`;
  let derived = derivedAddresses.get(key);
  if (!derived) {
    derived = findAssociatedTokenPda({
      owner: address(owner),
      mint: address(mint),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    }).then(([ata]) => ata);
    if (derivedAddresses.size >= MAX_CACHED_ADDRESSES) derivedAddresses.clear();
    derivedAddresses.set(key, derived);
  }
  return derived;
}

export interface TokenLeg {
  token: LegToken;
  /** The owner moving the tokens; signs the transfer. */
  from: TransactionSigner;
  to: string;
  /** Base units (lamports for SOL). */
  amount: bigint;
  /**
   * Who pays rent when the recipient's associated token account must be created; omit when the
   * recipient's account is known to exist (the market maker's inventory accounts).
   */
  createRecipientAccount?: TransactionSigner;
}

/**
 * One side of a swap, escrow or refund: SOL moves as lamports between system accounts (no wrapping:
 * fewer instructions and no temporary account), any other token by transferChecked between
 * associated token accounts, creating the recipient's idempotently when asked.
 */
export async function tokenLegInstructions(leg: TokenLeg): Promise<Instruction[]> {
  if (leg.token.mint === WRAPPED_SOL_MINT) {
    return [
      getTransferSolInstruction({ source: leg.from, destination: address(leg.to), amount: leg.amount }),
    ];
  }
  const mint = address(leg.token.mint);
  const [source, destination] = await Promise.all([
    associatedTokenAddress(leg.from.address, leg.token.mint),
    associatedTokenAddress(leg.to, leg.token.mint),
  ]);
  const instructions: Instruction[] = [];
  if (leg.createRecipientAccount) {
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({
        payer: leg.createRecipientAccount,
        ata: destination,
        owner: address(leg.to),
        mint,
      }),
    );
  }
  instructions.push(
    getTransferCheckedInstruction({
      source,
      mint,
      destination,
      authority: leg.from,
      amount: leg.amount,
      decimals: leg.token.decimals,
    }),
  );
  return instructions;
}
