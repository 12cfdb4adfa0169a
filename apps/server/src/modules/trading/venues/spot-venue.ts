import type { Transaction } from '@solana/kit';
import type { BlockhashLifetime } from '../../chain/chain.service';
import type { Dec } from '@solterm/engine';

/**
 * A place that fills spot swaps: the local RFQ market maker (default, embedded) or Jupiter (live).
 * Both quote first, then build one transaction the user's wallet signs. A venue that is a party to
 * the swap (the RFQ maker) never signs before the wallet has: its signature is added by `coSign` at
 * execute time, after it has re-checked the quote (otherwise a signed quote is a free option).
 */
export interface SpotVenue {
  /** 'local-rfq' | 'jupiter' — shown in quotes and receipts. */
  readonly name: string;
  quote(request: SpotQuoteRequest): Promise<SpotQuote>;
  /** The swap as an unsigned (by the user) v0 transaction for `quote`. */
  buildSwap(request: SpotSwapRequest): Promise<SpotSwapTransaction>;
  /**
   * Venues that sign a leg (`venueSigners` of the built swap): re-checks that the quote still holds
   * (within its time to live, price not moved against the venue beyond its tolerance, inventory
   * still there) and returns the wallet-signed transaction with the venue's signatures added.
   * Throws VenueError 'quote_expired' (or 'no_liquidity') otherwise.
   */
  coSign?(request: SpotCoSignRequest): Promise<Transaction>;
}

export interface SpotCoSignRequest {
  /** The quote the wallet signed: its request and the quote units it moves. */
  request: SpotQuoteRequest;
  quoteAmount: bigint;
  quotedAt: Date;
  now: Date;
  /** The transaction as the wallet signed it (its message is the one built for this quote). */
  transaction: Transaction;
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
  /**
   * The chain's latest blockhash, read by the caller while the quote was made (a venue that builds
   * the transaction itself uses it instead of reading one now; others ignore it).
   */
  latestBlockhash?: Promise<BlockhashLifetime>;
}

export interface SpotSwapTransaction {
  /** Wire bytes, the user's signature slot empty. */
  wireBytes: Uint8Array;
  /** The message the user signs; a signed transaction must carry exactly this message. */
  messageBytes: Uint8Array;
  lastValidBlockHeight: bigint;
  sizeBytes: number;
  networkFeeLamports: bigint;
  /** Addresses whose signatures the venue adds at execute time (`coSign`); empty for none. */
  venueSigners: string[];
}

/** A venue failure the trading service maps to TRADING__VENUE_UNAVAILABLE / TRADING__NO_LIQUIDITY / TRADING__QUOTE_EXPIRED. */
export class VenueError extends Error {
  override readonly name = 'VenueError';
  constructor(
    readonly kind: 'unavailable' | 'no_liquidity' | 'pair_unavailable' | 'bad_request' | 'quote_expired',
    message: string,
  ) {
    super(message);
  }
}
