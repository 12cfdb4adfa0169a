import type { Dec } from '@solterm/engine';

/**
 * A place that fills spot swaps: the local RFQ market maker (default, embedded) or Jupiter (live).
 * Both quote first, then build one transaction the user's wallet signs; the venue's own signatures
 * (a maker's leg) are already in place when the transaction is returned.
 */
export interface SpotVenue {
  /** 'local-rfq' | 'jupiter' — shown in quotes and receipts. */
  readonly name: string;
  quote(request: SpotQuoteRequest): Promise<SpotQuote>;
  /** The swap as an unsigned (by the user) v0 transaction for `quote`. */
  buildSwap(request: SpotSwapRequest): Promise<SpotSwapTransaction>;
}

/** A token as the venue sees it. */
export interface VenueToken {
  symbol: string;
  mint: string;
  decimals: number;
}

export interface SpotQuoteRequest {
  base: VenueToken;
  quote: VenueToken;
  side: 'Buy' | 'Sell';
  /** Base tokens bought or sold, in base units. */
  baseAmount: bigint;
  slippageBps: number;
}

export interface SpotQuote {
  venue: string;
  request: SpotQuoteRequest;
  /** Quote units the user pays (Buy) or receives (Sell), in base units of the quote token. */
  quoteAmount: bigint;
  /**
   * The worst the user accepts after slippage: Buy — most quote paid; Sell — least quote received.
   * The built transaction enforces the quoted amount exactly where the venue can (RFQ) or this bound.
   */
  quoteAmountLimit: bigint;
  /** Quote tokens per base token of the fill, fees included. */
  price: Dec;
  /** The market price the quote was made from (quote per base). */
  marketPrice: Dec;
  /** Venue fee in quote tokens (whole tokens), included in `price`. */
  venueFee: Dec;
  priceImpactBps: Dec;
  /** Venue-specific data the build step needs (Jupiter's raw quote response). */
  raw?: unknown;
}

export interface SpotSwapRequest {
  quote: SpotQuote;
  /** The wallet: fee payer and owner of both user-side token accounts. */
  userAddress: string;
  priorityFeeMicroLamports: number;
}

export interface SpotSwapTransaction {
  /** Wire bytes, the user's signature slot empty. */
  wireBytes: Uint8Array;
  /** The message the user signs; a signed transaction must carry exactly this message. */
  messageBytes: Uint8Array;
  lastValidBlockHeight: bigint;
  sizeBytes: number;
  networkFeeLamports: bigint;
}

/** A venue failure the trading service maps to TRADING__VENUE_UNAVAILABLE / TRADING__NO_LIQUIDITY. */
export class VenueError extends Error {
  override readonly name = 'VenueError';
  constructor(
    readonly kind: 'unavailable' | 'no_liquidity' | 'pair_unavailable' | 'bad_request',
    message: string,
  ) {
    super(message);
  }
}
