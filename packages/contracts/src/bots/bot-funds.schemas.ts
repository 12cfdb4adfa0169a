import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../errors/messages';
import { DELEGATION_MAX_SOL, DELEGATION_MIN_SOL, DELEGATION_STEP_SOL } from '../rules/constants';
import { SpecDecimal } from '../rules/decimal';

// A user's bot key, its funds and the delegations that let it trade (part 2 §3 "Delegation", §5, §7
// "Bot funds and delegation"). SOL amounts are JSON numbers of SOL; lamport amounts are integers.

/**
 * SOL the delegation transaction sends to the bot's own account when it holds less: the bot pays
 * its network fees and the rent of its token accounts from it. It is the owner's, like everything
 * the bot holds, and comes back with Withdraw.
 */
export const BOT_FEE_FLOAT_LAMPORTS = 10_000_000n;

const delegationAmountMessage = `Delegation amount must be between ${DELEGATION_MIN_SOL} and ${DELEGATION_MAX_SOL} SOL`;
/** Part 2 §5: the amount goes in steps of 0.1 SOL (DELEGATION_STEP_SOL), in lamports. */
export const DELEGATION_STEP_LAMPORTS = 100_000_000;
export const delegationStepMessage = `Delegation amount must be a multiple of ${DELEGATION_STEP_SOL} SOL`;

/** Whether `amount` SOL is a whole number of 0.1 SOL steps (decimal arithmetic: 0.3 is, 0.15 is not). */
export function isDelegationStep(amount: number): boolean {
  if (!Number.isFinite(amount)) return false;
  return new SpecDecimal(amount).mod(DELEGATION_STEP_SOL).isZero();
}

/** POST /delegation/create: the amount of wrapped SOL the bot may draw, in SOL. */
export const ZDelegationCreateRequestSchema = z.object({
  amount: z
    .number({ message: delegationAmountMessage })
    .min(DELEGATION_MIN_SOL, { message: delegationAmountMessage })
    .max(DELEGATION_MAX_SOL, { message: delegationAmountMessage })
    .refine(isDelegationStep, { message: delegationStepMessage }),
});

/** POST /delegation/create-transaction: the same, spelled out as the client sees it (amount in lamports). */
export const ZDelegationTransactionRequestSchema = z.object({
  wallet_address: z.string({ message: 'wallet_address is required' }).trim().min(1),
  token_mint: z.string({ message: 'token_mint is required' }).trim().min(1),
  amount: z
    .number({ message: delegationAmountMessage })
    .int({ message: 'amount is a whole number of lamports' })
    .min(DELEGATION_MIN_SOL * 1e9, { message: delegationAmountMessage })
    .max(DELEGATION_MAX_SOL * 1e9, { message: delegationAmountMessage })
    .refine((lamports) => lamports % DELEGATION_STEP_LAMPORTS === 0, { message: delegationStepMessage }),
  bot_public_key: z.string({ message: VALIDATION_MESSAGES.botPublicKeyUnavailable }).trim().min(1),
});

/** POST /delegation/submit: the signed approval (or revocation) of a delegation. */
export const ZDelegationSubmitRequestSchema = z.object({
  delegation_id: z.string().uuid({ message: 'Delegation not found' }),
  signed_transaction: z.string({ message: 'signed_transaction is required' }).min(1),
});

export const ZDelegationIdParamsSchema = z.object({
  id: z.string().uuid({ message: 'Delegation not found' }),
});

/** DELETE /delegation/revoke/{id}?unwrap=true: the revoke also unwraps the wallet's wrapped SOL. */
export const ZDelegationRevokeQuerySchema = z.object({
  unwrap: z
    .enum(['true', 'false'], { message: 'unwrap is true or false' })
    .optional()
    .transform((value) => value === 'true'),
});

/** pending: built, not yet signed; active: approved on chain; replaced by a newer approval; revoked. */
export const DELEGATION_STATUSES = ['pending', 'active', 'replaced', 'revoked'] as const;

/** A delegation (part 2 §3): what the wallet signs to let the bot draw wrapped SOL. */
export const ZDelegationSchema = z.object({
  delegation_id: z.string(),
  status: z.enum(DELEGATION_STATUSES),
  /** Base64 wire transaction for the wallet to sign (the approval, or the revocation once asked). */
  unsigned_transaction: z.string().nullable(),
  message: z.string(),
  /** What the transaction does, one plain line per instruction. */
  instructions: z.array(z.string()),
  /** SOL the bot may draw. */
  amount: z.number(),
  token_mint: z.string(),
  wallet_address: z.string(),
  bot_public_key: z.string(),
  /** The approval's and the revocation's transaction signatures once they landed. */
  approve_signature: z.string().nullable(),
  revoke_signature: z.string().nullable(),
  created_at: z.string(),
});
export type TDelegation = z.infer<typeof ZDelegationSchema>;

/** The delegation answer of POST /delegation/submit: the delegation as it now stands. */
export const ZDelegationSubmitResultSchema = ZDelegationSchema.extend({ transaction_hash: z.string() });

/** GET /bot/public-key. */
export const ZBotPublicKeySchema = z.object({ bot_public_key: z.string() });

/** GET /bot/balance: what the bot holds, and what it may still draw from the owner's wallet. */
export const ZBotBalanceSchema = z.object({
  bot_public_key: z.string(),
  /** SOL in the bot's own account. */
  balance: z.number(),
  lamports: z.string(),
  /** SOL Withdraw can send now (the balance above the rent-exempt reserve and the fee). */
  withdrawable: z.number(),
  /** Tokens the bot holds besides SOL (a position, or cash in the pair's quote). */
  tokens: z.array(z.object({ mint: z.string(), symbol: z.string().nullable(), amount: z.number() })),
  /** Wrapped SOL the bot may still draw under the owner's active approval (0 without one). */
  allowance: z.number(),
});
export type TBotBalance = z.infer<typeof ZBotBalanceSchema>;

/** POST /bot/withdraw: SOL from the bot's account back to its owner's wallet (the only destination). */
export const ZBotWithdrawRequestSchema = z.object({
  amount: z.number({ message: VALIDATION_MESSAGES.invalidWithdrawalAmount }),
  /** A token the bot holds (its USDC after a sell, a position's token) instead of SOL; whole tokens. */
  token_mint: z.string().trim().min(1).optional(),
});

export const ZBotWithdrawResultSchema = z.object({
  transaction_hash: z.string(),
  amount: z.number(),
  /** The token withdrawn: the wrapped-SOL mint for SOL. */
  token_mint: z.string(),
  to_address: z.string(),
  balance: z.number(),
});
export type TBotWithdrawResult = z.infer<typeof ZBotWithdrawResultSchema>;

/** GET /bots/production/{id}/status. */
export const ZProductionStatusSchema = z.object({
  bot_id: z.string(),
  status: z.enum(['running', 'stopped', 'failed']),
  is_running: z.boolean(),
  network_mode: z.string(),
  message: z.string().nullable(),
  started_at: z.string().nullable(),
  total_trades: z.number(),
  total_pnl: z.number(),
  /** The bot's on-chain trades, newest first (signature, side, amounts). */
  trades: z.array(
    z.object({
      time: z.string(),
      side: z.enum(['Buy', 'Sell']),
      base_amount: z.number(),
      quote_amount: z.number(),
      transaction_hash: z.string().nullable(),
    }),
  ),
});
export type TProductionStatus = z.infer<typeof ZProductionStatusSchema>;
