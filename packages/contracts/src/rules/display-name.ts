/**
 * The profile block's display name and subtitle (spec part 1 §3 "Display name" and "Subtitle").
 */

/** The user fields the display rules read; any user object with these fields fits. */
export interface DisplayUser {
  readonly username?: string | null;
  readonly email?: string | null;
  readonly solana_wallet_address?: string | null;
  readonly wallet_type?: string | null;
}

/** Usernames longer than this are cut. */
export const DISPLAY_NAME_MAX_LENGTH = 20;
/** A cut username keeps this many characters, then '...'. */
export const DISPLAY_NAME_CUT_LENGTH = 17;
/** Prefix of usernames the server derives from a wallet. */
export const WALLET_USERNAME_PREFIX = 'wallet_';
/** Domain of the e-mail addresses the server derives from a wallet. */
export const WALLET_EMAIL_DOMAIN = '@wallet.solterm';

/** Wallet brand names where capitalising the first letter is not the brand's spelling. */
const WALLET_BRAND_NAMES: Readonly<Record<string, string>> = { metamask: 'MetaMask' };

function usable(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

function cutName(name: string): string {
  return name.length > DISPLAY_NAME_MAX_LENGTH ? `${name.slice(0, DISPLAY_NAME_CUT_LENGTH)}...` : name;
}

/**
 * A wallet type as a display name: the first letter capitalised (`phantom` → `Phantom`),
 * MetaMask spelled as its brand.
 *
 * @example
 * formatWalletTypeName('solflare'); // 'Solflare'
 */
export function formatWalletTypeName(walletType: string): string {
  const trimmed = walletType.trim();
  return WALLET_BRAND_NAMES[trimmed.toLowerCase()] ?? trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/**
 * The name shown in the profile block: the username unless it starts with `wallet_` (then the
 * wallet type plus ' User', or the part of the e-mail before the @); a name longer than 20
 * characters is cut to 17 plus '...'; 'User' when logged in with nothing usable, 'Guest' when
 * logged out.
 *
 * @example
 * getDisplayName({ username: 'alice', email: null, solana_wallet_address: null, wallet_type: null }); // 'alice'
 * getDisplayName({ username: 'wallet_7xKX', email: null, solana_wallet_address: '7xKX…', wallet_type: 'phantom' }); // 'Phantom User'
 * getDisplayName(null); // 'Guest'
 */
export function getDisplayName(user: DisplayUser | null | undefined): string {
  if (!user) return 'Guest';
  const username = usable(user.username);
  if (username && !username.startsWith(WALLET_USERNAME_PREFIX)) return cutName(username);
  const walletType = usable(user.wallet_type);
  if (walletType) return cutName(`${formatWalletTypeName(walletType)} User`);
  const emailName = usable(usable(user.email)?.split('@')[0]);
  if (emailName) return cutName(emailName);
  return 'User';
}

/**
 * Shortens an address to its first `head` and last `tail` characters around '...'. Addresses too
 * short to gain from it are returned as they are.
 *
 * @example
 * shortenAddress('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'); // '7xKX...gAsU'
 * shortenAddress('0x52908400098527886E0F7030069857D2E4169EE7', 6, 4); // '0x5290...9EE7'
 */
export function shortenAddress(address: string, head = 4, tail = 4): string {
  if (address.length <= head + tail + 3) return address;
  return `${address.slice(0, head)}...${address.slice(address.length - tail)}`;
}

/**
 * Whether an e-mail is temporary or derived from a wallet rather than typed by the user: it ends
 * in '@wallet.solterm', or contains 'wallet_' or 'temp' (case-insensitive).
 *
 * @example
 * isWalletDerivedEmail('wallet_7xkx@wallet.solterm'); // true
 * isWalletDerivedEmail('alice@example.com');         // false
 */
export function isWalletDerivedEmail(email: string): boolean {
  const lower = email.trim().toLowerCase();
  return (
    lower.endsWith(WALLET_EMAIL_DOMAIN) || lower.includes(WALLET_USERNAME_PREFIX) || lower.includes('temp')
  );
}

/**
 * The line under the display name: the shortened wallet address when there is one; 'Connected
 * via Wallet' for a temporary or wallet-derived e-mail; otherwise the e-mail; 'Connected' when
 * logged in with neither; 'Not logged in' when logged out.
 *
 * @example
 * getDisplaySubtitle({ username: 'alice', email: 'alice@example.com', solana_wallet_address: null, wallet_type: null }); // 'alice@example.com'
 * getDisplaySubtitle(null); // 'Not logged in'
 */
export function getDisplaySubtitle(user: DisplayUser | null | undefined): string {
  if (!user) return 'Not logged in';
  const address = usable(user.solana_wallet_address);
  if (address) return shortenAddress(address);
  const email = usable(user.email);
  if (email) return isWalletDerivedEmail(email) ? 'Connected via Wallet' : email;
  return 'Connected';
}
