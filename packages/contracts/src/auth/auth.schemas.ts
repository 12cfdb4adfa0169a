import { z } from 'zod';

/** Passwords: at least 8 characters (spec part 1 §9); the upper bound keeps hashing cheap to refuse. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Wallet kinds a user can connect with. `solana` is a generic Wallet Standard wallet (e.g. the Local wallet). */
export const WALLET_TYPES = ['manual', 'metamask', 'phantom', 'solflare', 'solana'] as const;
export const ZWalletTypeSchema = z.enum(WALLET_TYPES);
export type TWalletType = z.infer<typeof ZWalletTypeSchema>;

/** Wallet types whose signatures are ed25519 over a Solana public key. */
export const SOLANA_WALLET_TYPES = [
  'phantom',
  'solflare',
  'solana',
] as const satisfies readonly TWalletType[];

const ZEmailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Please enter a valid email address' }));

const ZPasswordSchema = z
  .string()
  .max(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long` });

export const ZUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  solana_wallet_address: z.string().nullable(),
  wallet_type: z.string().nullable(),
  /** True for accounts created from a manually typed address: they can look but never trade. */
  is_watch_only: z.boolean(),
  has_password: z.boolean(),
  created_at: z.string(),
});
export type TUser = z.infer<typeof ZUserSchema>;

export const ZAuthResultSchema = z.object({ token: z.string(), user: ZUserSchema, expires_at: z.string() });
export type TAuthResult = z.infer<typeof ZAuthResultSchema>;

export const ZRegisterRequestSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, { message: 'Username is required' })
    .max(64, { message: 'Username must be at most 64 characters long' }),
  email: ZEmailSchema,
  password: ZPasswordSchema.min(PASSWORD_MIN_LENGTH, {
    message: 'Password must be at least 8 characters long',
  }),
});
export type TRegisterRequest = z.infer<typeof ZRegisterRequestSchema>;

export const ZLoginRequestSchema = z.object({
  email: ZEmailSchema,
  password: ZPasswordSchema.min(1, { message: 'Password is required' }),
  remember_me: z.boolean().optional().default(false),
});
export type TLoginRequest = z.input<typeof ZLoginRequestSchema>;

export const ZForgotPasswordRequestSchema = z.object({ email: ZEmailSchema });
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequestSchema>;

export const ZResetPasswordRequestSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, { message: 'Invalid reset link. Please request a new password reset.' })
    .max(200),
  new_password: ZPasswordSchema.min(PASSWORD_MIN_LENGTH, {
    message: 'Password must be at least 8 characters long',
  }),
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequestSchema>;

export const ZMessageResultSchema = z.object({ message: z.string() });

/** EVM chain id as hex, e.g. 0x1 (spec part 1 §9 manual chain list or a custom hex). */
export const ZChainIdSchema = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{1,16}$/, { message: 'Chain id must be a hex number such as 0x1' });

export const ZWalletChallengeQuerySchema = z.object({
  wallet_address: z.string().trim().min(1).max(128),
  wallet_type: ZWalletTypeSchema.exclude(['manual']),
});
export type TWalletChallengeQuery = z.infer<typeof ZWalletChallengeQuerySchema>;

export const ZWalletChallengeSchema = z.object({
  message: z.string(),
  nonce: z.string(),
  issued_at: z.string(),
  expires_at: z.string(),
});
export type TWalletChallenge = z.infer<typeof ZWalletChallengeSchema>;

export const ZConnectWalletRequestSchema = z.object({
  wallet_address: z.string().trim().min(1, { message: 'Please enter a wallet address' }).max(128),
  wallet_type: ZWalletTypeSchema,
  chain_id: ZChainIdSchema.optional(),
  /** base58 or base64 ed25519 signature (Solana) or 0x-hex EIP-191 signature (MetaMask). */
  signature: z.string().trim().max(512).optional(),
  /** The exact challenge message from GET /auth/wallet-challenge. */
  message: z.string().max(2048).optional(),
});
export type TConnectWalletRequest = z.infer<typeof ZConnectWalletRequestSchema>;

export const ZCreateWalletResultSchema = z.object({
  wallet_address: z.string(),
  wallet_type: z.literal('custodial'),
  created: z.boolean(),
});
export type TCreateWalletResult = z.infer<typeof ZCreateWalletResultSchema>;

export const ZValidateTokenResultSchema = z.object({
  user_id: z.string(),
  valid: z.literal(true),
  expires_at: z.string(),
});
export type TValidateTokenResult = z.infer<typeof ZValidateTokenResultSchema>;
