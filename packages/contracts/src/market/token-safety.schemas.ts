import { z } from 'zod';
import { isSolanaAddress } from '../rules/token-identity';

// GET /api/tokens/{mint}/safety: what a mint's on-chain state says about the risk of holding it.

export const TOKEN_SAFETY_LEVELS = ['ok', 'caution', 'danger'] as const;
export type TTokenSafetyLevel = (typeof TOKEN_SAFETY_LEVELS)[number];
export const TOKEN_SAFETY_SEVERITIES = ['info', 'warning', 'danger'] as const;
export type TTokenSafetySeverity = (typeof TOKEN_SAFETY_SEVERITIES)[number];

export const TOKEN_SAFETY_FLAG_CODES = [
  'mint_authority',
  'freeze_authority',
  'permanent_delegate',
  'transfer_hook',
  'transfer_fee',
  'non_transferable',
  'default_account_frozen',
  'top10_concentration',
  'single_holder_concentration',
] as const;
export type TTokenSafetyFlagCode = (typeof TOKEN_SAFETY_FLAG_CODES)[number];

export const ZTokenSafetyParamsSchema = z.object({
  mint: z
    .string()
    .trim()
    .refine((text) => isSolanaAddress(text), {
      message: 'mint must be a Solana address (32–44 base58 characters)',
    }),
});

export const ZTokenSafetyFlagSchema = z.object({
  code: z.enum(TOKEN_SAFETY_FLAG_CODES),
  severity: z.enum(TOKEN_SAFETY_SEVERITIES),
  message: z.string(),
});
export type TTokenSafetyFlag = z.infer<typeof ZTokenSafetyFlagSchema>;

export const ZTokenSafetyHolderSchema = z.object({
  /** The wallet owning the token account (the token account itself when its owner is unknown). */
  address: z.string(),
  token_account: z.string(),
  /** Base units, as a decimal string. */
  amount: z.string(),
  /** Percent of the supply, two decimals. */
  share: z.number(),
  /** A known account (the venue's maker, escrow or vault; an exchange): not counted as concentration. */
  label: z.string().nullable(),
});
export type TTokenSafetyHolder = z.infer<typeof ZTokenSafetyHolderSchema>;

export const ZTokenSafetySchema = z.object({
  mint: z.string(),
  token_program: z.enum(['spl-token', 'spl-token-2022']),
  decimals: z.number().int(),
  /** Base units, as a decimal string. */
  supply: z.string(),
  mint_authority: z.string().nullable(),
  freeze_authority: z.string().nullable(),
  /** Token-2022 extension names as the RPC's jsonParsed shows them (`transferFeeConfig`, …). */
  extensions: z.array(z.string()),
  top_holders: z.array(ZTokenSafetyHolderSchema),
  /** Percent of the supply held by the ten largest holders that are not known accounts. */
  top10_share: z.number(),
  flags: z.array(ZTokenSafetyFlagSchema),
  level: z.enum(TOKEN_SAFETY_LEVELS),
  checked_at: z.string(),
});
export type TTokenSafety = z.infer<typeof ZTokenSafetySchema>;

/** The level of a set of flags: any danger flag → danger, else any warning → caution, else ok. */
export function tokenSafetyLevel(flags: readonly { severity: TTokenSafetySeverity }[]): TTokenSafetyLevel {
  if (flags.some((flag) => flag.severity === 'danger')) return 'danger';
  if (flags.some((flag) => flag.severity === 'warning')) return 'caution';
  return 'ok';
}
