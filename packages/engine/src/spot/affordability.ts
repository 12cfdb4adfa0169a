// Whether a wallet can afford what it is about to sign: the one rule the server enforces before it
// builds a transaction and the web previews before it asks for one. Exact on base units.

/** Lamports a system account must keep unless it is emptied completely (0 bytes of data). */
export const RENT_EXEMPT_WALLET_LAMPORTS = 890_880n;
/** Lamports that make an SPL token account (165 bytes) rent-exempt: paid by whoever opens it. */
export const RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS = 2_039_280n;

/**
 * Whether a wallet holding `held` lamports may spend `spend` of them: the runtime refuses to leave a
 * system account with a balance between zero and the rent-exempt minimum.
 *
 * @example
 * solSpendCheck(1_000_000_000n, 1_000_000_000n); // 'ok' (the account closes)
 * solSpendCheck(1_000_000_000n, 999_500_000n);   // 'below_rent' (500,000 lamports would be left)
 * solSpendCheck(1n, 2n);                         // 'insufficient'
 */
export function solSpendCheck(held: bigint, spend: bigint): 'ok' | 'insufficient' | 'below_rent' {
  if (spend > held) return 'insufficient';
  const left = held - spend;
  return left > 0n && left < RENT_EXEMPT_WALLET_LAMPORTS ? 'below_rent' : 'ok';
}

/** A token in an affordability check: its mint (the native mint for SOL), symbol and decimals. */
export interface AffordToken {
  readonly mint: string;
  readonly symbol: string;
  readonly decimals: number;
}

export interface AffordabilityInput {
  /** The wallet's lamports and its token balances by mint, in base units. */
  readonly lamports: bigint;
  readonly tokens: ReadonlyMap<string, bigint>;
  /** The native (wrapped SOL) mint: paying or receiving it moves lamports, never a token account. */
  readonly nativeMint: string;
  /** What the transaction takes from the wallet. */
  readonly pays: AffordToken & { readonly amount: bigint };
  /** The token it receives, whose account the wallet opens (rent) unless it already holds one. */
  readonly receives: AffordToken | null;
  /** Network fees (and any other rent the transaction pays), in lamports. */
  readonly feeLamports: bigint;
}

/** What is missing: the token, how much is required and how much the wallet has (base units). */
export interface Shortfall {
  readonly token: AffordToken;
  readonly required: bigint;
  readonly available: bigint;
}

const SOL: Omit<AffordToken, 'mint'> = { symbol: 'SOL', decimals: 9 };

/**
 * The first shortfall of an order, or null when the wallet can afford it: the token it pays, then SOL
 * for the fee, the rent of a token account it will receive into, and (when it pays SOL) the amount —
 * leaving nothing or at least the rent-exempt minimum.
 *
 * @example
 * affordabilityShortfall({ lamports: 10_000n, tokens: new Map(), nativeMint, pays: { ...usdc, amount: 1n },
 *   receives: null, feeLamports: 5_000n });
 * // { token: usdc, required: 1n, available: 0n }
 */
export function affordabilityShortfall(input: AffordabilityInput): Shortfall | null {
  const { lamports, tokens, nativeMint, pays, receives } = input;
  const paysSol = pays.mint === nativeMint;
  if (!paysSol) {
    const available = tokens.get(pays.mint) ?? 0n;
    if (available < pays.amount) {
      const token = { mint: pays.mint, symbol: pays.symbol, decimals: pays.decimals };
      return { token, required: pays.amount, available };
    }
  }
  const rent =
    receives && receives.mint !== nativeMint && !tokens.has(receives.mint)
      ? RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS
      : 0n;
  const solNeeded = input.feeLamports + rent + (paysSol ? pays.amount : 0n);
  const check = solSpendCheck(lamports, solNeeded);
  if (check === 'ok') return null;
  const sol = { ...SOL, mint: nativeMint };
  return {
    token: sol,
    required: check === 'insufficient' ? solNeeded : solNeeded + RENT_EXEMPT_WALLET_LAMPORTS,
    available: lamports,
  };
}
