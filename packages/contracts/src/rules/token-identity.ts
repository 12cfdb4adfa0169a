/**
 * The spec's token identity map (part 1 §3): the fixed list of Solana mints the product knows by
 * symbol, with their on-chain decimals, plus the decimals fallback table (part 1 §9) and address
 * recognisers. The local cluster creates these mints at these mainnet addresses.
 */

/** One known token: its mainnet mint and on-chain decimals. */
export interface TokenIdentity {
  /** Upper-case ticker used in pairs (`SOL/USDC`). */
  readonly symbol: string;
  /** Display name. */
  readonly name: string;
  /** Mainnet SPL mint address (base58). */
  readonly mint: string;
  /** The mint's decimals. */
  readonly decimals: number;
}

/** The wrapped SOL native mint; SOL is traded as this mint. */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112';
/** The USDC mint (Circle, native on Solana). */
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** The USDT mint (Tether, native on Solana). */
export const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';

/**
 * The token identity map. Addresses and decimals were checked against public token lists
 * (Jupiter / Solana token-list copies, Wormhole Portal listings). Bridged assets use the Wormhole
 * (Portal) mints, which cap decimals at 8.
 */
export const TOKEN_IDENTITIES: readonly TokenIdentity[] = [
  { symbol: 'SOL', name: 'Solana', mint: WRAPPED_SOL_MINT, decimals: 9 },
  { symbol: 'USDC', name: 'USD Coin', mint: USDC_MINT, decimals: 6 },
  { symbol: 'USDT', name: 'Tether USD', mint: USDT_MINT, decimals: 6 },
  { symbol: 'BONK', name: 'Bonk', mint: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', decimals: 5 },
  { symbol: 'WIF', name: 'dogwifhat', mint: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm', decimals: 6 },
  // The Solana-native "Pepe" token most lists map PEPE to (6 decimals), not a Wormhole bridge of
  // the Ethereum PEPE.
  { symbol: 'PEPE', name: 'Pepe', mint: 'F9CpWoyeBJfoRB8f2pBe2ZNPbPsEE76mWZWme3StsvHK', decimals: 6 },
  {
    symbol: 'SHIB',
    name: 'Shiba Inu (Wormhole)',
    mint: 'CiKu4eHsVrc1eueVQeHn7qhXTcVu95gSQmBpX4utjL9z',
    decimals: 8,
  },
  {
    symbol: 'BTC',
    name: 'Wrapped BTC (Wormhole)',
    mint: '3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh',
    decimals: 8,
  },
  {
    symbol: 'ETH',
    name: 'Ether (Wormhole)',
    mint: '7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs',
    decimals: 8,
  },
  // A second, older wrapped ether (Sollet bridge): the map needs one mint per symbol.
  {
    symbol: 'WETH',
    name: 'Wrapped Ether (Sollet)',
    mint: '2FPyTwcZLUg1MDrwsyoP4D6s1tM7hAkHYRjkNb5w6Pxk',
    decimals: 6,
  },
  { symbol: 'RAY', name: 'Raydium', mint: '4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R', decimals: 6 },
  { symbol: 'JUP', name: 'Jupiter', mint: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', decimals: 6 },
  { symbol: 'ORCA', name: 'Orca', mint: 'orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE', decimals: 6 },
  { symbol: 'SRM', name: 'Serum', mint: 'SRMuApVNdxXokk5GT7XD5cUUgXMBCoAz2LHeuAoKWRt', decimals: 6 },
  {
    symbol: 'DAI',
    name: 'Dai (Wormhole)',
    mint: 'EjmyN6qEC1Tf1JxiG1ae7UTJhUxSwk1TCWNWqxWV4J6o',
    decimals: 8,
  },
];

/**
 * Symbols the spec lists in the identity map for which no mainnet mint could be verified (no
 * canonical SPL mint for DOGE; GIVE is ambiguous). They resolve by the decimals fallback only and
 * are not created on the local cluster. Add them to {@link TOKEN_IDENTITIES} once verified.
 */
export const UNVERIFIED_IDENTITY_SYMBOLS = ['DOGE', 'GIVE'] as const;

/** Other spellings accepted for a symbol. */
const SYMBOL_ALIASES: Readonly<Record<string, string>> = { WSOL: 'SOL', WBTC: 'BTC' };

/** Quote symbols treated as US-dollar stablecoins by the trading rules (minimum amount, formatting). */
export const STABLECOIN_SYMBOLS = ['USD', 'USDC', 'USDT'] as const;

/** Token decimals fallback (part 1 §9) when a mint's decimals cannot be looked up. */
export const FALLBACK_TOKEN_DECIMALS: Readonly<Record<string, number>> = {
  SOL: 9,
  USDC: 6,
  USDT: 6,
  USD: 6,
  BTC: 8,
  ETH: 8,
  BONK: 5,
};

/** Decimals of any token not in {@link FALLBACK_TOKEN_DECIMALS}. */
export const DEFAULT_TOKEN_DECIMALS = 6;

const BY_SYMBOL = new Map(TOKEN_IDENTITIES.map((token) => [token.symbol, token]));
const BY_MINT = new Map(TOKEN_IDENTITIES.map((token) => [token.mint, token]));

function normaliseSymbol(symbol: string): string {
  const upper = symbol.trim().toUpperCase();
  return SYMBOL_ALIASES[upper] ?? upper;
}

/**
 * Looks a token up by symbol, case-insensitively (`Bonk`, `bonk` and `BONK` are the same; `WSOL`
 * and `WBTC` are aliases of SOL and BTC).
 *
 * @example
 * getTokenBySymbol('usdc')?.mint; // 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
 */
export function getTokenBySymbol(symbol: string): TokenIdentity | undefined {
  return BY_SYMBOL.get(normaliseSymbol(symbol));
}

/**
 * Looks a token up by its exact mint address (base58 is case-sensitive).
 *
 * @example
 * getTokenByMint('So11111111111111111111111111111111111111112')?.symbol; // 'SOL'
 */
export function getTokenByMint(mint: string): TokenIdentity | undefined {
  return BY_MINT.get(mint.trim());
}

/** Resolves a symbol or a mint address to a known token. */
export function getToken(symbolOrMint: string): TokenIdentity | undefined {
  return getTokenByMint(symbolOrMint) ?? getTokenBySymbol(symbolOrMint);
}

/**
 * Decimals of a token given by symbol or mint: the identity map first, then the spec's fallback
 * table (SOL 9; USDC, USDT, USD 6; BTC, ETH 8; BONK 5), then 6.
 *
 * @example
 * getTokenDecimals('SOL');  // 9
 * getTokenDecimals('DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'); // 5
 * getTokenDecimals('XYZ');  // 6
 */
export function getTokenDecimals(symbolOrMint: string): number {
  const known = getToken(symbolOrMint);
  if (known) return known.decimals;
  return FALLBACK_TOKEN_DECIMALS[normaliseSymbol(symbolOrMint)] ?? DEFAULT_TOKEN_DECIMALS;
}

/**
 * Whether a quote token (symbol or mint) is a US-dollar stablecoin in the spec's sense: USD, USDC
 * or USDT.
 *
 * @example
 * isStablecoin('usdc'); // true
 * isStablecoin('SOL');  // false
 */
export function isStablecoin(symbolOrMint: string): boolean {
  const symbol = getTokenByMint(symbolOrMint)?.symbol ?? normaliseSymbol(symbolOrMint);
  return (STABLECOIN_SYMBOLS as readonly string[]).includes(symbol);
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_PATTERN = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** Byte length of a base58 string's decoded value (leading '1's are leading zero bytes). */
function getBase58ByteLength(text: string): number {
  let value = 0n;
  for (const char of text) value = value * 58n + BigInt(BASE58_ALPHABET.indexOf(char));
  let leadingZeros = 0;
  while (text[leadingZeros] === '1') leadingZeros += 1;
  let bytes = 0;
  while (value > 0n) {
    value >>= 8n;
    bytes += 1;
  }
  return leadingZeros + bytes;
}

/**
 * Whether a string is a Solana address: 32 to 44 base58 characters that decode to exactly 32
 * bytes. A guard only: it says nothing about whether the account exists.
 *
 * @example
 * isSolanaAddress('JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN'); // true (43 characters)
 * isSolanaAddress('0x52908400098527886E0F7030069857D2E4169EE7'); // false
 */
export function isSolanaAddress(text: string): boolean {
  if (text.length < 32 || text.length > 44 || !BASE58_PATTERN.test(text)) return false;
  return getBase58ByteLength(text) === 32;
}

/**
 * The spec's mint recogniser: 44 base58 characters (a valid 32-byte address). Real mints can be
 * shorter — the wrapped SOL, JUP, ORCA and SRM mints are 43 — so use {@link isSolanaAddress} where
 * any mint must be accepted.
 *
 * @example
 * isMintAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'); // true
 * isMintAddress('USDC'); // false
 */
export function isMintAddress(text: string): boolean {
  return text.length === 44 && isSolanaAddress(text);
}

/**
 * Whether a string is an EVM address: `0x` followed by 40 hex characters (any case; no checksum
 * check), the manual wallet rule on /wallet-connect.
 *
 * @example
 * isEvmAddress('0x52908400098527886E0F7030069857D2E4169EE7'); // true
 */
export function isEvmAddress(text: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(text);
}
