/**
 * The holder-analysis seam. Holder analysis needs two things that come from different places:
 *
 * - **balances** — who holds a token and how much: a {@link HolderSource}. Today the simulator's
 *   deterministic holder distribution (simulated-holder-source.ts); once the local chain lands, an
 *   implementation that reads the mint's token accounts over Solana JSON-RPC
 *   (`getTokenLargestAccounts` / `getProgramAccounts` on the SPL Token program, owners from the
 *   parsed accounts, SOL balances with `getMultipleAccounts`, last activity from
 *   `getSignaturesForAddress`). The holders service does not change when it is swapped;
 *   app.ts chooses the implementation.
 * - **labels** — which wallets are smart money, KOLs/VCs, carry a remark or are tracked: a
 *   {@link WalletDirectory}. There is no on-chain source for these; the simulated directory stays
 *   until a curated list exists.
 */

/** One holder of a token. Amounts are base units; optional facts are null when a source cannot know them. */
export interface HolderAccount {
  /** Owner wallet address (not the token account). */
  owner: string;
  /** Balance in base units. */
  amount: bigint;
  /** SOL balance of the owner wallet, lamports. */
  solLamports: bigint | null;
  lastActivity: Date | null;
  /** Average price paid per token, USD decimal string (from trade history). */
  averageCostUsd: string | null;
  /** Share of everything the wallet ever acquired that it has sold, percent (from trade history). */
  soldPercent: string | null;
}

/** The largest holders of one mint. */
export interface HolderSnapshot {
  mint: string;
  decimals: number;
  /** Total supply, base units. */
  supply: bigint;
  /** Number of wallets holding a non-zero balance. */
  holderCount: number;
  /** Largest balance first. */
  holders: HolderAccount[];
}

/** Where balances come from. */
export interface HolderSource {
  /** Shown as `source` in responses (`simulator`, later `chain`). */
  readonly name: string;
  /** The `limit` largest holders of a mint, or undefined when the source does not know the mint. */
  getTopHolders(mint: string, limit: number): Promise<HolderSnapshot | undefined>;
}

export const HOLDER_TAGS = ['smart', 'kol', 'remarks', 'tracking'] as const;
export type HolderTag = (typeof HOLDER_TAGS)[number];

/** What is known about a wallet. */
export interface WalletLabel {
  /** A display label (e.g. a fund name or a remark), or null to show the shortened address. */
  name: string | null;
  tags: HolderTag[];
}

/** Where wallet labels come from. */
export interface WalletDirectory {
  describe(owner: string, context: { mint: string; rank: number }): WalletLabel;
}
