import { address, createNoopSigner, partiallySignTransaction, type KeyPairSigner } from '@solana/kit';
import { WRAPPED_SOL_MINT } from '@solterm/contracts';
import { Dec, DEFAULT_RFQ_PRICING, isQuoteStillFirm, quoteRfq, type RfqPricing } from '@solterm/engine';
import {
  associatedTokenAddress,
  buildTransaction,
  tokenLegInstructions,
  type ChainService,
} from '../../chain/chain.service';
import {
  VenueError,
  type SpotQuote,
  type SpotQuoteRequest,
  type SpotSwapRequest,
  type SpotSwapTransaction,
  type SpotVenue,
  type VenueToken,
} from './spot-venue';

/** How long a quote stays executable, by default (RFQ_QUOTE_TTL_MS). */
export const DEFAULT_QUOTE_TTL_MS = 10_000;
/** How far the price may move against the maker before it refuses to sign, by default (RFQ_PRICE_TOLERANCE_BPS). */
export const DEFAULT_PRICE_TOLERANCE_BPS = 10;
/** Share of its highest holding of a token the maker always keeps, by default (MAKER_INVENTORY_FLOOR_BPS). */
export const DEFAULT_INVENTORY_FLOOR_BPS = 1_000;

export interface LocalRfqVenueDeps {
  chain: ChainService;
  /** The market maker: its inventory fills every swap; it signs its leg only at execute time. */
  maker: KeyPairSigner;
  /** USD price of a token (decimal string), from the market data feed. */
  usdPriceOf(token: VenueToken): Promise<string>;
  pricing?: RfqPricing;
  /** Milliseconds from the quote to the latest execute the maker signs (default 10 s). */
  quoteTtlMs?: number;
  /** Basis points the maker's price may have moved against it at execute time (default 10). */
  priceToleranceBps?: number;
  /**
   * Basis points of the highest holding of each token seen since start that the maker never quotes
   * below (default 1000 = 10 %): users cannot drain its inventory of a token.
   */
  inventoryFloorBps?: number;
}

/** What the maker holds of a token, in base units (lamports for SOL). */
async function makerHolding(chain: ChainService, maker: string, token: VenueToken): Promise<bigint> {
  if (token.mint === WRAPPED_SOL_MINT) return chain.getBalance(maker);
  // One account read (the maker's associated account pays every swap), not a scan of all its accounts.
  return (await chain.getTokenAccountAmount(await associatedTokenAddress(maker, token.mint))) ?? 0n;
}

/** Lamports the maker keeps for fees and rent; it never quotes its SOL below this. */
const MAKER_SOL_RESERVE = 1_000_000_000n;

/**
 * The local RFQ market maker: quotes at the market-data mid with a spread, a venue fee and a
 * size-based price impact (engine `quoteRfq`), and builds one v0 transaction in which the wallet
 * pays one leg and the maker the other, so the swap is atomic on chain. As Jupiter's RFQ makers do,
 * the wallet signs first and the maker signs at execute time (`coSign`), only while the quote is
 * within its time to live and the price has not moved against the maker beyond its tolerance: a
 * quote is never a free option, and the user-signed transaction cannot land without the server.
 */
export function createLocalRfqVenue(deps: LocalRfqVenueDeps): SpotVenue {
  const pricing = deps.pricing ?? DEFAULT_RFQ_PRICING;
  const quoteTtlMs = deps.quoteTtlMs ?? DEFAULT_QUOTE_TTL_MS;
  const toleranceBps = deps.priceToleranceBps ?? DEFAULT_PRICE_TOLERANCE_BPS;
  const floorBps = BigInt(deps.inventoryFloorBps ?? DEFAULT_INVENTORY_FLOOR_BPS);
  /** The highest holding of each token seen since start (the floor is a share of it). */
  const highestHolding = new Map<string, bigint>();

  async function quote(request: SpotQuoteRequest): Promise<SpotQuote> {
    const [baseUsd, quoteUsd] = await Promise.all([
      deps.usdPriceOf(request.base),
      deps.usdPriceOf(request.quote),
    ]);
    const midPrice = new Dec(baseUsd).div(quoteUsd);
    const rfq = quoteRfq({
      side: request.side,
      baseAmount: request.baseAmount,
      baseDecimals: request.base.decimals,
      quoteDecimals: request.quote.decimals,
      midPrice,
      quoteUsdPrice: new Dec(quoteUsd),
      pricing,
    });
    if (rfq.quoteAmount <= 0n) throw new VenueError('bad_request', 'The amount is too small to quote');
    // The maker must hold what it gives (base on a buy, quote on a sell) and keep its reserve floor.
    const [givenToken, givenAmount] =
      request.side === 'Buy' ? [request.base, request.baseAmount] : [request.quote, rfq.quoteAmount];
    const held = await makerHolding(deps.chain, deps.maker.address, givenToken);
    const seen = highestHolding.get(givenToken.mint) ?? 0n;
    const highest = held > seen ? held : seen;
    highestHolding.set(givenToken.mint, highest);
    const floor = (highest * floorBps) / 10_000n;
    const reserve = givenToken.mint === WRAPPED_SOL_MINT ? MAKER_SOL_RESERVE + floor : floor;
    if (held - givenAmount < reserve) {
      throw new VenueError('no_liquidity', `The market maker cannot fill this size of ${givenToken.symbol}`);
    }
    return {
      venue: 'local-rfq',
      request,
      quoteAmount: rfq.quoteAmount,
      quoteAmountLimit: rfq.quoteAmount,
      price: rfq.price,
      marketPrice: midPrice,
      venueFee: rfq.venueFee,
      priceImpactBps: rfq.priceImpactBps,
    };
  }

  return {
    name: 'local-rfq',

    quote,

    async buildSwap(request: SpotSwapRequest): Promise<SpotSwapTransaction> {
      const { quote: signedQuote } = request;
      const { base, quote: quoteToken, side, baseAmount } = signedQuote.request;
      const user = createNoopSigner(address(request.userAddress));
      // The maker is named as a signer but does not sign now: coSign adds its signature at execute.
      const maker = createNoopSigner(deps.maker.address);
      const [userGives, makerGives] =
        side === 'Buy'
          ? [
              { token: quoteToken, amount: signedQuote.quoteAmount },
              { token: base, amount: baseAmount },
            ]
          : [
              { token: base, amount: baseAmount },
              { token: quoteToken, amount: signedQuote.quoteAmount },
            ];
      const lifetimeRead = request.latestBlockhash ?? deps.chain.getLatestBlockhash();
      lifetimeRead.catch(() => undefined);
      const instructions = [
        ...(await tokenLegInstructions({ ...userGives, from: user, to: deps.maker.address })),
        ...(await tokenLegInstructions({
          ...makerGives,
          from: maker,
          to: request.userAddress,
          createRecipientAccount: user,
        })),
      ];
      const lifetime = await lifetimeRead;
      const built = await buildTransaction({
        feePayer: user.address,
        instructions,
        lifetime,
        priorityFeeMicroLamports: request.priorityFeeMicroLamports,
      });
      return {
        wireBytes: built.wireBytes,
        messageBytes: built.messageBytes,
        lastValidBlockHeight: built.lastValidBlockHeight,
        sizeBytes: built.sizeBytes,
        // The wallet pays both signatures' fees: the maker's is counted in the estimate.
        networkFeeLamports: built.networkFeeLamports,
        venueSigners: [deps.maker.address],
      };
    },

    async coSign(request) {
      const age = request.now.getTime() - request.quotedAt.getTime();
      if (age > quoteTtlMs) {
        throw new VenueError('quote_expired', `The quote is ${age} ms old (valid for ${quoteTtlMs} ms)`);
      }
      // The same size quoted again now (this also re-checks the inventory and its floor).
      const current = await quote(request.request);
      if (
        !isQuoteStillFirm({
          side: request.request.side,
          quotedAmount: request.quoteAmount,
          currentAmount: current.quoteAmount,
          toleranceBps,
        })
      ) {
        throw new VenueError('quote_expired', 'The price moved against the maker since the quote');
      }
      return partiallySignTransaction([deps.maker.keyPair], request.transaction);
    },
  };
}
