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

/** Most USDC one faucet call may request, and what it sends when `amount_usdc` is omitted. */
export const FAUCET_MAX_USDC = 100_000;
export const FAUCET_DEFAULT_USDC = 1000;

/** POST /wallet/fund body with the USDC leg: 0 ≤ amount_usdc ≤ 100,000 (0 skips USDC). */
export const ZFundWalletWithUsdcRequestSchema = ZFundWalletRequestSchema.extend({
  amount_usdc: z
    .number({ message: 'amount_usdc must be a number' })
    .min(0, { message: 'amount_usdc must be at least 0' })
    .max(FAUCET_MAX_USDC, { message: `amount_usdc must be at most ${FAUCET_MAX_USDC}` })
    .refine((value) => new SpecDecimal(value).decimalPlaces() <= 6, {
      message: 'amount_usdc has at most 6 decimal places',
    })
    .optional(),
});
export type TFundWalletWithUsdcRequest = z.infer<typeof ZFundWalletWithUsdcRequestSchema>;

/** POST /wallet/fund result with the USDC leg (null signature when no USDC was requested). */
export const ZFundWalletWithUsdcResultSchema = ZFundWalletResultSchema.extend({
  amount_usdc: z.number(),
  usdc_signature: z.string().nullable(),
  usdc_balance: z.number(),
});
export type TFundWalletWithUsdcResult = z.infer<typeof ZFundWalletWithUsdcResultSchema>;

/** One token of the portfolio (part 1 §2). */
export const ZPortfolioTokenSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  balance: z.number(),
  decimals: z.number().int(),
  price_usd: z.number().nullable(),
  value_usd: z.number(),
  mint_address: z.string(),
});
export type TPortfolioToken = z.infer<typeof ZPortfolioTokenSchema>;

/** GET /wallet/portfolio: every balance read from the chain, valued at market prices. */
export const ZPortfolioSchema = z.object({
  total_value_usd: z.number(),
  sol_balance: z.number(),
  sol_price_usd: z.number(),
  wallet_address: ZWalletAddressSchema,
  tokens: z.array(ZPortfolioTokenSchema),
});
export type TPortfolio = z.infer<typeof ZPortfolioSchema>;

export const ZPortfolioQuerySchema = z.object({ wallet_address: z.string().max(64).optional() });

/** GET /wallet/token-balance/{a}/{b} (a = wallet address, b = mint or symbol) and GET /solana/token-balance. */
export const ZTokenBalanceSchema = z.object({
  wallet_address: ZWalletAddressSchema,
  mint_address: z.string(),
  symbol: z.string().nullable(),
  balance: z.number(),
  decimals: z.number().int(),
  /** Exact base units, decimal integer string. */
  amount: z.string().regex(/^\d+$/),
});
export type TTokenBalance = z.infer<typeof ZTokenBalanceSchema>;

export const ZTokenBalanceParamsSchema = z.object({
  a: z.string().min(1).max(64),
  b: z.string().min(1).max(64),
});
export const ZTokenBalanceQuerySchema = z.object({
  mint_address: z.string({ message: 'mint_address is required' }).min(1).max(64),
});

const ZTransferAmountSchema = z
  .number({ message: 'amount must be a number' })
  .refine((value) => Number.isFinite(value), { message: 'amount must be a finite number' })
  .refine((value) => value > 0, { message: 'amount must be greater than 0' })
  .refine((value) => value <= 1e12, { message: 'amount is too large' });

/** POST /wallet/transfer and /solana/transfer: SOL to another address. */
export const ZSolTransferRequestSchema = z.object({
  to_address: z.string({ message: 'to_address is required' }).min(1).max(64),
  amount: ZTransferAmountSchema,
});
export type TSolTransferRequest = z.infer<typeof ZSolTransferRequestSchema>;

/** POST /solana/transfer-token: an SPL token to another address (its associated account is created if needed). */
export const ZTokenTransferRequestSchema = ZSolTransferRequestSchema.extend({
  mint_address: z.string({ message: 'mint_address is required' }).min(1).max(64),
});
export type TTokenTransferRequest = z.infer<typeof ZTokenTransferRequestSchema>;

/**
 * A transfer the wallet signs: the unsigned v0 transaction (wallet as fee payer), to be sent
 * through POST /trading/execute-signed-transaction.
 */
export const ZTransferTransactionSchema = z.object({
  unsigned_transaction: z.string(),
  last_valid_block_height: z.string().regex(/^\d+$/),
  from_address: ZWalletAddressSchema,
  to_address: ZWalletAddressSchema,
  mint_address: z.string().nullable(),
  amount: z.number(),
  size_bytes: z.number().int(),
});
export type TTransferTransaction = z.infer<typeof ZTransferTransactionSchema>;

/**
 * POST /wallet/unwrap-sol: the SPL closeAccount of the wallet's wrapped-SOL account, unsigned, for
 * the wallet to sign and send via execute-signed-transaction; its lamports (the wrapped SOL and the
 * account's rent) come back to the wallet as SOL.
 */
export const ZUnwrapTransactionSchema = z.object({
  unsigned_transaction: z.string(),
  last_valid_block_height: z.string().regex(/^\d+$/),
  wallet_address: ZWalletAddressSchema,
  /** The wrapped SOL unwrapped. */
  amount: z.number(),
  /** SOL the wallet gets back: the wrapped SOL plus the account's rent. */
  sol_returned: z.number(),
  size_bytes: z.number().int(),
});
export type TUnwrapTransaction = z.infer<typeof ZUnwrapTransactionSchema>;
