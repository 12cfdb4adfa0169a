import type { TransactionError } from '@solana/kit';
import type { ErrorCode } from '@solterm/contracts';

/** SPL Token's InsufficientFunds, and the System program's ResultWithNegativeLamports, are custom error 1. */
const CUSTOM_INSUFFICIENT_FUNDS = 1;

function customCodeOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'Custom' in error)
    return Number((error as { Custom: unknown }).Custom);
  return undefined;
}

/**
 * The spec's trade message for a transaction error from simulation or landing (part 1 §8): an
 * unknown blockhash is an expired transaction; a fee payer with no SOL is 'Attempt to debit an
 * account but found no record of a prior credit' (the detailed insufficient-balance text); a
 * token or lamport shortfall inside an instruction is the short insufficient-balance text; anything
 * else is the generic simulation failure.
 */
export function tradeErrorCodeOf(error: TransactionError): ErrorCode {
  if (typeof error === 'string') {
    switch (error) {
      case 'BlockhashNotFound':
        return 'TRADING__TRANSACTION_EXPIRED';
      case 'AlreadyProcessed':
        return 'TRADING__ALREADY_EXECUTED';
      case 'AccountNotFound':
      case 'InsufficientFundsForFee':
        return 'TRADING__INSUFFICIENT_BALANCE';
      default:
        return 'TRADING__SIMULATION_FAILED';
    }
  }
  if ('InsufficientFundsForRent' in error) return 'TRADING__INSUFFICIENT_FUNDS';
  if ('InstructionError' in error) {
    const [, cause] = error.InstructionError as readonly [unknown, unknown];
    if (cause === 'InsufficientFunds' || customCodeOf(cause) === CUSTOM_INSUFFICIENT_FUNDS) {
      return 'TRADING__INSUFFICIENT_FUNDS';
    }
  }
  return 'TRADING__SIMULATION_FAILED';
}
