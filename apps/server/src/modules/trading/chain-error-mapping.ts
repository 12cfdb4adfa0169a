import type { TransactionError } from '@solana/kit';
import type { ErrorCode } from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { isRelayError } from '../relay/relay.service';

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

/**
 * The relay's refusal of a wallet-signed transaction in trading's words (the spec's messages):
 * decoding, signatures, the ticket it was built as, expiry, a second execution, and the chain's
 * verdict in simulation or on landing. Anything else (an unknown outcome, Idempotency-Key refusals)
 * passes through unchanged for the caller to handle.
 */
export function walletTransactionErrorOf(error: unknown): unknown {
  if (!isRelayError(error)) return error;
  switch (error.code) {
    case 'RELAY__TRANSACTION_INVALID':
      return new AppError('TRADING__TRANSACTION_INVALID');
    case 'RELAY__SIGNATURE_MISSING':
      return new AppError('TRADING__SIGNATURE_MISSING');
    case 'RELAY__SIGNATURE_INVALID':
      return new AppError('TRADING__SIGNATURE_INVALID');
    case 'RELAY__TRANSACTION_UNKNOWN':
      return new AppError('TRADING__TRANSACTION_UNKNOWN');
    case 'RELAY__TRANSACTION_MODIFIED':
      return new AppError('TRADING__TRANSACTION_MODIFIED');
    case 'RELAY__TRANSACTION_EXPIRED':
      return new AppError('TRADING__TRANSACTION_EXPIRED');
    case 'RELAY__ALREADY_EXECUTED':
      return new AppError('TRADING__ALREADY_EXECUTED');
    case 'RELAY__SIMULATION_FAILED':
    case 'RELAY__TRANSACTION_FAILED':
      return new AppError(
        error.chainError ? tradeErrorCodeOf(error.chainError) : 'TRADING__SIMULATION_FAILED',
      );
    default:
      return error;
  }
}
