import { z } from 'zod';
import { SpecDecimal } from '../rules/decimal';

/** Most SOL one faucet call (POST /wallet/fund) may request. */
export const FAUCET_MAX_SOL = 10;
/** What POST /wallet/fund airdrops when `amount_sol` is omitted. */
export const FAUCET_DEFAULT_SOL = 1;
/** SOL has 9 decimals: an amount finer than one lamport cannot be sent. */
export const SOL_DECIMALS = 9;

/** A base58 Solana address as the wallet endpoints return it. */
const ZWalletAddressSchema = z.string();

/** GET /wallet/solana-balance and GET /solana/balance: the connected wallet's SOL, read from the chain. */
export const ZSolanaBalanceSchema = z.object({
  wallet_address: ZWalletAddressSchema,
  /** SOL (lamports / 10^9), as a JSON number. */
  sol_balance: z.number(),
  /** The exact balance in lamports, as a decimal integer string (u64 can exceed 2^53). */
  lamports: z.string().regex(/^\d+$/),
});
export type TSolanaBalance = z.infer<typeof ZSolanaBalanceSchema>;

/** GET /wallet/balance: the spec's wallet balance (part 2 §6), every balance read from the chain. */
export const ZWalletBalanceSchema = z.object({
  sol_balance: z.number(),
  btc_balance: z.number(),
  eth_balance: z.number(),
  usdc_balance: z.number(),
  usdt_balance: z.number(),
  /** The five balances valued at the market feed's prices. */
  total_value_usd: z.number(),
  wallet_address: ZWalletAddressSchema,
});
export type TWalletBalance = z.infer<typeof ZWalletBalanceSchema>;

/** GET /wallet/status: whether a wallet is connected and whether it can sign trades. */
export const ZWalletStatusSchema = z.object({
  connected: z.boolean(),
  wallet_address: ZWalletAddressSchema.nullable(),
  wallet_type: z.string().nullable(),
  /** A signing Solana wallet (not watch-only, not an EVM wallet). */
  can_trade: z.boolean(),
});
export type TWalletStatus = z.infer<typeof ZWalletStatusSchema>;

/** POST /wallet/fund body: a localnet faucet request in SOL (0 < amount ≤ 10, whole lamports). */
export const ZFundWalletRequestSchema = z.object({
  amount_sol: z
    .number({ message: 'amount_sol must be a number' })
    .positive({ message: 'amount_sol must be greater than 0' })
    .max(FAUCET_MAX_SOL, { message: `amount_sol must be at most ${FAUCET_MAX_SOL}` })
    .refine((value) => new SpecDecimal(value).decimalPlaces() <= SOL_DECIMALS, {
      message: `amount_sol has at most ${SOL_DECIMALS} decimal places`,
    })
    .optional(),
});
export type TFundWalletRequest = z.infer<typeof ZFundWalletRequestSchema>;

/** POST /wallet/fund result: the airdrop's signature (confirmed) and the new balance. */
export const ZFundWalletResultSchema = z.object({
  wallet_address: ZWalletAddressSchema,
  amount_sol: z.number(),
  signature: z.string(),
  sol_balance: z.number(),
});
export type TFundWalletResult = z.infer<typeof ZFundWalletResultSchema>;
