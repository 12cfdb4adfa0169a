import { isAddress } from '@solana/kit';
import {
  getTokenBySymbol,
  SOL_DECIMALS,
  SOLANA_WALLET_TYPES,
  SpecDecimal,
  type ErrorCode,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { utcText } from '../../lib/utc-time';

/** What the wallet module needs to know about the signed-in user. */
export interface WalletOwner {
  id: string;
  solanaWalletAddress: string | null;
  walletType: string | null;
  isWatchOnly: boolean;
}

const SOLANA_TYPES: readonly string[] = SOLANA_WALLET_TYPES;

/** Base units to a JSON number of whole tokens (decimal.js, never float division). */
export function fromBaseUnits(amount: bigint, decimals: number): number {
  return new SpecDecimal(amount.toString()).div(new SpecDecimal(10).pow(decimals)).toNumber();
}

/** Whole SOL (already validated: positive, at most 9 decimals) to lamports. */
export function solToLamports(amountSol: number): bigint {
  return BigInt(new SpecDecimal(amountSol).times(new SpecDecimal(10).pow(SOL_DECIMALS)).toFixed(0));
}

/** Whole tokens to base units, rounded down: a transfer never moves more than was asked. */
export function toBaseUnits(amount: number, decimals: number): bigint {
  return BigInt(
    new SpecDecimal(amount).times(new SpecDecimal(10).pow(decimals)).toFixed(0, SpecDecimal.ROUND_DOWN),
  );
}

/**
 * A Solana wallet the user proved by signature (not watch-only, not an EVM wallet): the only kind
 * that may trade or receive money. A Solana wallet type is stored on the user only after its
 * signed challenge was checked (auth.service); a typed address is stored as 'manual'.
 */
export function canTrade(owner: WalletOwner): boolean {
  return (
    owner.solanaWalletAddress !== null &&
    !owner.isWatchOnly &&
    owner.walletType !== null &&
    SOLANA_TYPES.includes(owner.walletType)
  );
}

/**
 * The connected wallet's address when it is a Solana wallet the portfolio may read: no wallet gives
 * 'No wallet connected. Please connect a wallet first.'; watch-only and EVM wallets give the spec's
 * 'Portfolio data is only available for Solana wallets. …'.
 */
export function solanaAddressOf(owner: WalletOwner): string {
  if (!owner.solanaWalletAddress) throw new AppError('WALLET__NOT_CONNECTED');
  if (!canTrade(owner)) throw new AppError('WALLET__SOLANA_ONLY');
  return owner.solanaWalletAddress;
}

/** The connected Solana wallet, refusing an address the client names (`claimed`) that is another one. */
export function ownWalletOf(owner: WalletOwner, claimed: string | undefined): string {
  const walletAddress = solanaAddressOf(owner);
  const named = claimed?.trim();
  if (named && named !== walletAddress) {
    throw new AppError(isAddress(named) ? 'WALLET__ADDRESS_MISMATCH' : 'WALLET__ADDRESS_INVALID');
  }
  return walletAddress;
}

/**
 * The one rule for "the user's wallet" wherever money leaves the server for it (bot and futures
 * withdrawals, the faucet) or it acts with money (transfers, on-chain bot starts, copying a bot):
 * the connected wallet must pass `canTrade`, i.e. be proven by signature. No wallet gives `missing`;
 * a typed address (a watch-only account, or wallet_type 'manual' connected to any account) gives
 * WALLET__WATCH_ONLY; an EVM wallet gives WALLET__SOLANA_ONLY.
 */
export function provenWalletOf(owner: WalletOwner, missing: ErrorCode = 'WALLET__NOT_CONNECTED'): string {
  if (!owner.solanaWalletAddress) throw new AppError(missing);
  if (owner.isWatchOnly || owner.walletType === 'manual') throw new AppError('WALLET__WATCH_ONLY');
  if (!canTrade(owner)) throw new AppError('WALLET__SOLANA_ONLY');
  return owner.solanaWalletAddress;
}

/** When withdrawals to the user's wallet `address` unlock, if they are locked now; else null. */
export type WithdrawalLock = (userId: string, address: string) => Promise<Date | null>;

/**
 * Where a withdrawal sends the user's money (bot funds, futures collateral): the proven wallet, unless
 * it was linked to an account that already had another wallet less than WALLET_CHANGE_LOCK_MS ago —
 * then WALLET__CHANGE_LOCKED (403) says when it unlocks, so a stolen session that links its own
 * signed wallet cannot take the money before the owner, told by email, acts. Paths where the wallet
 * itself signs (faucet, transfers, spot orders, delegations) need no lock: they move only its own money.
 */
export async function payoutWalletOf(
  owner: WalletOwner,
  missing: ErrorCode,
  lockedUntil: WithdrawalLock,
): Promise<string> {
  const wallet = provenWalletOf(owner, missing);
  const until = await lockedUntil(owner.id, wallet);
  if (until) {
    throw new AppError(
      'WALLET__CHANGE_LOCKED',
      `This wallet was linked to your account recently: withdrawals to it unlock at ${utcText(until)}. Until then they can go only to a wallet you linked earlier.`,
    );
  }
  return wallet;
}

/** The wallet that signs faucet requests and transfers. */
export function signingWalletOf(owner: WalletOwner): string {
  return provenWalletOf(owner);
}

/** A mint address, or a symbol of the identity map (`USDC`, `bonk`) resolved to its mint. */
export function resolveMint(mintOrSymbol: string): string {
  const text = mintOrSymbol.trim();
  if (isAddress(text)) return text;
  const known = getTokenBySymbol(text);
  if (!known) throw new AppError('WALLET__MINT_INVALID');
  return known.mint;
}
