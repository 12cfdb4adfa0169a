import { BOT_MESSAGES, TRADE_MESSAGES } from './messages';

/** What a chain error means for the trade. */
export type ChainErrorKind = 'transaction_expired' | 'insufficient_balance';

/** A chain error mapped to the spec's trade message. */
export interface MappedChainError {
  readonly kind: ChainErrorKind;
  /** The text to show. */
  readonly message: string;
  /** Whether the trade may be retried automatically (expired transactions, up to 2 times). */
  readonly isRetryable: boolean;
}

function includesIgnoreCase(text: string, part: string): boolean {
  return text.toLowerCase().includes(part.toLowerCase());
}

/**
 * Maps a chain or RPC error message to the spec's trade message (part 1 §8), or `null` when it is
 * none of the known cases (show the generic fallback, e.g. 'Failed to execute transaction'):
 * - 'Blockhash not found' / 'Transaction expired' → 'Transaction expired: Please try the trade
 *   again.' (retryable; checked first because a simulation of an expired transaction fails too);
 * - 'Attempt to debit an account but found no record of a prior credit' → the detailed
 *   insufficient-balance message;
 * - simulation failed, or RPC error -32002 → the "may not have sufficient balance" message;
 * - 'Insufficient' → 'Insufficient balance: Please check your wallet balance.'
 *
 * @example
 * mapChainError('Transaction simulation failed: Blockhash not found')?.kind; // 'transaction_expired'
 * mapChainError('RPC error -32002')?.message; // 'Transaction failed: Your wallet may not have …'
 */
export function mapChainError(message: string): MappedChainError | null {
  if (
    includesIgnoreCase(message, 'Blockhash not found') ||
    includesIgnoreCase(message, 'Transaction expired')
  ) {
    return { kind: 'transaction_expired', message: TRADE_MESSAGES.transactionExpired, isRetryable: true };
  }
  if (includesIgnoreCase(message, 'Attempt to debit an account but found no record of a prior credit')) {
    return {
      kind: 'insufficient_balance',
      message: TRADE_MESSAGES.insufficientBalanceDetailed,
      isRetryable: false,
    };
  }
  if (includesIgnoreCase(message, 'simulation failed') || message.includes('-32002')) {
    return { kind: 'insufficient_balance', message: TRADE_MESSAGES.simulationFailed, isRetryable: false };
  }
  if (includesIgnoreCase(message, 'insufficient')) {
    return { kind: 'insufficient_balance', message: TRADE_MESSAGES.insufficientBalance, isRetryable: false };
  }
  return null;
}

/**
 * Maps a bot-withdraw failure to the spec's text (part 2 §8): an insufficient bot balance message
 * is shown as it is; program error 0x1 → 'Insufficient funds for transaction fees. Try a smaller
 * amount.'; simulation failed → 'Transaction failed. Please check balance and try again.';
 * anything else → 'Failed to withdraw from bot'.
 *
 * @example
 * mapBotWithdrawError('custom program error: 0x1'); // 'Insufficient funds for transaction fees. Try a smaller amount.'
 */
export function mapBotWithdrawError(message: string): string {
  if (includesIgnoreCase(message, 'Insufficient bot balance')) return message;
  if (/\b(?:custom )?program error: 0x1\b/i.test(message) || /\berror 0x1\b/i.test(message)) {
    return BOT_MESSAGES.withdrawFeesInsufficient;
  }
  if (includesIgnoreCase(message, 'simulation failed')) return BOT_MESSAGES.withdrawSimulationFailed;
  return BOT_MESSAGES.withdrawFailed;
}

/**
 * Whether a bot start error asks for a delegation approval (the client then opens the delegation
 * modal): the message contains 'delegation approval', case-insensitive.
 *
 * @example
 * isDelegationApprovalError('Mainnet bots require delegation approval'); // true
 */
export function isDelegationApprovalError(message: string): boolean {
  return includesIgnoreCase(message, 'delegation approval');
}
