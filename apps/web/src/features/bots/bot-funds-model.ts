import {
  BOT_RENT_EXEMPT_RESERVE_SOL,
  BOT_WITHDRAW_MIN_SOL,
  DELEGATION_MAX_SOL,
  DELEGATION_MIN_SOL,
  delegationStepMessage,
  isDelegationStep,
  mapBotWithdrawError,
  type TBot,
  SpecDecimal,
  VALIDATION_MESSAGES,
} from '@solterm/contracts';

/** The delegation amount's message, or null when it can be created (part 2 §5: 0.1–100 SOL, step 0.1). */
export function delegationAmountError(text: string): string | null {
  const amount = Number(text);
  if (text.trim() === '' || !Number.isFinite(amount) || amount <= 0) return 'Enter an amount of SOL';
  if (amount < DELEGATION_MIN_SOL || amount > DELEGATION_MAX_SOL) {
    return `Delegation amount must be between ${DELEGATION_MIN_SOL} and ${DELEGATION_MAX_SOL} SOL`;
  }
  if (!isDelegationStep(amount)) return delegationStepMessage;
  return null;
}

/**
 * Whether a push about `botId` (a candle evaluated, a status change) may have moved the bot key's
 * funds: an on-chain bot's, or one the list does not know yet. A paper bot's never does.
 */
export function pushMovesFunds(bots: readonly TBot[] | undefined, botId: string): boolean {
  const bot = bots?.find((row) => row.bot_id === botId);
  return !bot || bot.network_mode === 'mainnet';
}

/**
 * The withdrawal's message in the spec's order (part 2 §5), or null when the server would accept
 * it: a valid amount, not above the balance, at least 0.0001 SOL, leaving 0.00089 SOL.
 */
export function withdrawError(text: string, balanceSol: number): string | null {
  const amount = Number(text);
  if (text.trim() === '' || !Number.isFinite(amount) || amount <= 0) {
    return VALIDATION_MESSAGES.invalidWithdrawalAmount;
  }
  const balance = new SpecDecimal(balanceSol);
  const requested = new SpecDecimal(amount);
  if (requested.gt(balance)) {
    return VALIDATION_MESSAGES.insufficientBotBalance(balance.toFixed(), requested.toFixed());
  }
  if (amount < BOT_WITHDRAW_MIN_SOL) return VALIDATION_MESSAGES.minimumWithdrawal;
  if (balance.minus(requested).lt(BOT_RENT_EXEMPT_RESERVE_SOL)) {
    return `The bot must keep at least ${BOT_RENT_EXEMPT_RESERVE_SOL} SOL (rent-exempt reserve); withdraw less`;
  }
  return null;
}

/** A token withdrawal's message (a valid amount, not above what the bot holds), or null. */
export function tokenWithdrawError(text: string, held: number, symbol: string): string | null {
  const amount = Number(text);
  if (text.trim() === '' || !Number.isFinite(amount) || amount <= 0) {
    return VALIDATION_MESSAGES.invalidWithdrawalAmount;
  }
  const balance = new SpecDecimal(held);
  const requested = new SpecDecimal(amount);
  if (requested.gt(balance)) {
    return `Insufficient bot balance. Available: ${balance.toFixed()} ${symbol}, Requested: ${requested.toFixed()} ${symbol}`;
  }
  return null;
}

/**
 * What a failed bot withdrawal shows: the server's own refusals (BOT__* rules, and WALLET__* ones
 * such as a watch-only wallet or a newly linked wallet's lock with its unlock time) as the server
 * wrote them; anything else (chain failures) mapped to the spec's withdrawal texts.
 */
export function botWithdrawFailureText(code: string | undefined, message: string): string {
  return code?.startsWith('BOT__') || code?.startsWith('WALLET__') ? message : mapBotWithdrawError(message);
}
